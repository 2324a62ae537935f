#include "engine/core/planner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "engine/base/hash.h"
#include "engine/base/time_format.h"
#include "engine/core/schema_check.h"
#include "engine/plan/rules.h"
#include "engine/core/lifecycle.h"
#include "engine/core/operation_timeouts.h"
#include "engine/core/generated_config.h"
#include "engine/core/moves.h"
#include "engine/core/operation_slots.h"
#include "engine/core/provider_blocks.h"
#include "engine/core/refresh_batches.h"
#include "engine/core/relevant_drift.h"
#include "engine/core/resource_dependencies.h"
#include "engine/core/saved_plan.h"
#include "engine/core/targets.h"
#include "engine/graph/walker.h"
#include "engine/value/json.h"

namespace strata {

namespace {

// Sorts `items` by `less` (stable), moving each item once: sorting the changes themselves
// moved every one of them a dozen times or more (a no-op plan of 10,000 spent 4% of its
// CPU there).
template <typename T, typename Less>
void SortMovingOnce(std::vector<T>& items, Less less) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return less(items[a], items[b]); });
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (size_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

// The reason an instance that config no longer declares is deleted.
ActionReason DeleteReason(const ResourceInstanceAddr& addr, const StageGraph& graph, const StageEvaluation& evaluation) {
  const ModuleInstance* module = nullptr;
  for (const ModuleInstance& m : graph.modules) {
    if (m.path == addr.module.WithoutKeys()) module = &m;
  }
  if (!module) return ActionReason::DeleteBecauseNoModule;
  std::vector<ModulePath> instances = evaluation.ModuleInstancePaths(static_cast<size_t>(module - graph.modules.data()));
  if (std::find(instances.begin(), instances.end(), addr.module) == instances.end()) return ActionReason::DeleteBecauseNoModule;
  const auto& table = addr.resource.mode == ResourceMode::Data ? module->data : module->resources;
  auto it = table.find(addr.resource.name);
  if (it == table.end()) return ActionReason::DeleteBecauseNoResourceConfig;
  const ResourceConfig& r = *graph.nodes[it->second].resource;
  if (r.type != addr.resource.type) return ActionReason::DeleteBecauseNoResourceConfig;
  bool counted = r.count != nullptr, each = r.for_each != nullptr;
  if (addr.key.IsNone() && (counted || each)) return ActionReason::DeleteBecauseWrongRepetition;
  if (addr.key.IsInt() && !counted) return ActionReason::DeleteBecauseWrongRepetition;
  if (addr.key.IsString() && !each) return ActionReason::DeleteBecauseWrongRepetition;
  return addr.key.IsInt() ? ActionReason::DeleteBecauseCountIndex : ActionReason::DeleteBecauseEachKey;
}

Value Unmarked(const Value& v) { return v.DeepUnmark(); }

class Planner {
 public:
  Planner(const PlanRequest& request, Diagnostics& diags)
      : req_(request),
        diags_(diags),
        providers_(*request.providers),
        targets_(request.targets),
        slots_(request.options.parallelism) {
    prior_state_ = request.prior;
    const ModuleConfig* root = request.stage->graph ? request.stage->graph->modules[0].config : nullptr;
    if (root && (!root->moved.empty() || !root->removed.empty())) {
      // Moved and removed entries rename or drop objects of a copy of the prior state;
      // the plan is made against the copy, and the apply renames as the plan says.
      moved_prior_ = *request.prior;
      moves_ = ApplyMoveStatements(*root, *request.stage->graph, moved_prior_, diags_);
      ConvertMovesAcrossTypes();
      prior_state_ = &moved_prior_;
    }
    for (const auto& r : prior_state_->resources) {
      prior_[r.addr.ToString()] = &r;
      interrupted_creates_in_state_ = interrupted_creates_in_state_ || r.IsInterruptedCreate();
    }
    for (const auto& text : request.replace) replace_.insert(text);
  }

  // A move across resource types: the target type's provider converts the object's
  // attributes (no API call); the plan then refreshes and plans it as that type.
  void ConvertMovesAcrossTypes() {
    for (state::ResourceInstanceState& r : moved_prior_.resources) {
      auto from = moves_.previous.find(r.addr);
      if (from == moves_.previous.end() || from->second.resource.type == r.addr.resource.type) continue;
      state::ResourceInstanceState original = r;
      original.addr = from->second;
      Diagnostics converting;
      std::optional<state::ResourceInstanceState> converted =
          ConvertMovedInstance(*req_.providers, original, r.addr, converting);
      for (Diagnostic d : converting) {
        if (!d.subject.IsKnown()) d.subject = moves_.entry[r.addr];
        diags_.Add(std::move(d));
      }
      if (converted) r = std::move(*converted);
    }
  }

  PlanOutcome Run() {
    PlanOutcome out;
    Plan& plan = out.plan;
    plan.stage = req_.stage->stage->name;
    plan.mode = req_.mode;
    plan.targets = req_.targets;
    plan.replace = req_.replace;
    plan.prior_lineage = req_.prior->lineage;
    plan.prior_serial = req_.prior->serial;
    if (req_.state_digest) plan.prior_state_digest = StateDigest(*req_.prior);
    plan.config_digest = ConfigDigest(*req_.stage);
    plan_time_ = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    plan.timestamp = base::FormatRfc3339(plan_time_);
    const StageGraph& graph = *req_.stage->graph;
    if (diags_.HasErrors()) {  // a moved or removed entry could not apply
      plan.errored = true;
      return out;
    }
    deps_ = ResourceDependencies(graph);
    targeted_nodes_ = targets_.NodesToPlan(graph, diags_);
    if (diags_.HasErrors()) {
      plan.errored = true;
      return out;
    }

    batches_ = std::make_unique<RefreshBatches>(
        RefreshCandidates(), slots_, req_.options.parallelism, req_.stop,
        [this](const std::string& address, const Value& prior) { ReportRefresh(address, prior); });
    out.evaluation = Evaluate(plan);
    evaluation_ = out.evaluation.get();
    if (!out.evaluation) {
      plan.errored = true;
      return out;
    }
    if (req_.mode == PlanMode::Normal) out.generated_config = CheckImportTargets(*out.evaluation);
    if (req_.mode == PlanMode::Normal) PlanOrphans();
    if (req_.mode == PlanMode::Destroy) PlanDestroy();
    if (req_.mode == PlanMode::Normal) ForceCreateBeforeDestroy();
    if (req_.mode != PlanMode::RefreshOnly) PlanDeposed();
    PlanMovedLeftovers();
    // An instance's current object before its deposed ones.
    SortMovingOnce(changes_, [](const auto& a, const auto& b) {
      return a.addr < b.addr || (a.addr == b.addr && a.deposed < b.deposed);
    });
    SortMovingOnce(drift_, [](const auto& a, const auto& b) { return a.addr < b.addr; });
    plan.changes = std::move(changes_);
    plan.drift = std::move(drift_);
    if (!diags_.HasErrors() && out.evaluation) PlanOutputs(plan, *out.evaluation);
    KeepRelevantDrift(plan, graph, deps_);
    plan.errored = diags_.HasErrors();
    return out;
  }

 private:
  std::unique_ptr<StageEvaluation> Evaluate(Plan& plan) {
    EvaluateOptions eval = req_.engine->EvaluationOptions(*req_.project, *req_.stage, req_.options, diags_);
    eval.stop = req_.stop;
    eval.on_instance = [this](const InstanceHookInput& in, Diagnostics& diags) { return OnInstance(in, diags); };
    eval.imports = req_.imports;
    eval.planning = true;
    eval.plan_time = plan_time_;
    if (diags_.HasErrors()) return nullptr;
    auto evaluation = std::make_unique<StageEvaluation>(*req_.stage->graph, &req_.engine->schemas(), std::move(eval));
    evaluation->Run(diags_);
    // Every root variable's value (defaults included), as Terraform's plan records them:
    // apply of a saved plan evaluates with exactly these.
    for (const auto& [name, id] : req_.stage->graph->modules[0].variables) {
      if (evaluation->NodeStatus()[id] == WalkStatus::Succeeded) plan.variables[name] = evaluation->ResultOf(id);
    }
    return evaluation;
  }

  OperationContext Context(const std::string& address) const {
    OperationContext ctx;
    ctx.address = address;
    if (req_.progress) {
      ctx.progress = [this, address](const std::string& m) { req_.progress(address, m); };
    }
    return ctx;
  }

  const state::ResourceInstanceState* PriorOf(const std::string& address) const {
    auto it = prior_.find(address);
    return it == prior_.end() ? nullptr : it->second;
  }

  void Record(ResourceInstanceChange change) {
    std::lock_guard lock(mu_);
    if (change.action != Action::NoOp) changed_resources_.insert(change.addr.ConfigAddr().ToString());
    changes_.push_back(std::move(change));
  }

  void RecordDrift(ResourceInstanceChange change) {
    std::lock_guard lock(mu_);
    drift_.push_back(std::move(change));
  }

  void MarkSeen(const std::string& address) {
    std::lock_guard lock(mu_);
    seen_.insert(address);
  }

  bool DependencyChanges(NodeId node) {
    std::lock_guard lock(mu_);
    for (const std::string& d : deps_[node]) {
      if (changed_resources_.count(d)) return true;
    }
    return false;
  }

  ResourceInstanceChange NewChange(const InstanceHookInput& in, const std::string& provider) const {
    ResourceInstanceChange c;
    c.addr = in.addr;
    c.type = in.addr.resource.type;
    c.provider = provider;
    c.mode = in.addr.resource.mode == ResourceMode::Data ? "data" : "managed";
    c.schema_version = in.schema->version;
    c.dependencies = deps_[in.node];
    c.create_before_destroy = in.graph_node->resource->lifecycle.create_before_destroy;
    c.timeouts = in.graph_node->resource->timeouts.durations;
    c.previous_addr = PreviousAddress(in.addr);
    return c;
  }

  std::optional<ResourceInstanceAddr> PreviousAddress(const ResourceInstanceAddr& addr) const {
    auto it = moves_.previous.find(addr);
    return it == moves_.previous.end() ? std::nullopt : std::optional<ResourceInstanceAddr>(it->second);
  }

  // The value references to this instance see, and the change recorded for it.
  Value OnInstance(const InstanceHookInput& in, Diagnostics& diags) {
    std::string address = in.addr.ToString();
    MarkSeen(address);
    const state::ResourceInstanceState* prior = PriorOf(address);
    bool targeted = targeted_nodes_.empty() || (targeted_nodes_[in.node] && targets_.MatchesInstance(in.addr, in.node));
    if (req_.mode == PlanMode::Destroy && prior && prior->IsInterruptedCreate()) {
      LookForInterruptedCreate(in, *prior, diags);
    }
    if (req_.mode == PlanMode::Destroy && interrupted_creates_in_state_ && in.addr.resource.mode == ResourceMode::Data) {
      return ReadDataForLookups(in, diags);
    }
    if (!targeted || req_.mode == PlanMode::Destroy) {
      // Not planned: what state knows stands (config values where there is no state).
      return prior && prior->attributes.IsMapping() ? prior->attributes : PlannedInstanceValue(*in.schema, in.config);
    }
    OperationContext ctx = Context(address);
    Provider* provider = providers_.For(in.addr.resource.mode, in.addr.resource.type, in.provider_node,
                                        in.provider_config, ctx, diags);
    if (!provider) return PlannedInstanceValue(*in.schema, in.config);
    std::string provider_name = providers_.RecordedName(in, *req_.stage->graph);
    Diagnostics valid = provider->ValidateResourceConfig(ctx, in.addr.resource.mode, in.addr.resource.type, in.config);
    diags.Append(valid);
    if (valid.HasErrors()) return PlannedInstanceValue(*in.schema, in.config);
    if (in.addr.resource.mode == ResourceMode::Data) return PlanData(in, *provider, provider_name, ctx, diags);
    return PlanManaged(in, prior, *provider, provider_name, ctx, diags);
  }

  // A destroy meeting an instance whose create was interrupted asks the provider what that
  // create made, without creating anything: PlanDestroy then deletes the object found, or
  // lets the instance leave state when nothing was made. The lookup gets the value the
  // create was planned with: a natural key in it that is not known (it comes from a data
  // source, or from another interrupted create) leaves the provider unable to tell.
  void LookForInterruptedCreate(const InstanceHookInput& in, const state::ResourceInstanceState& prior,
                                Diagnostics& diags) {
    std::string address = in.addr.ToString();
    OperationContext ctx = Context(address);
    ctx.idempotency_token = prior.idempotency_token;
    Provider* provider = providers_.For(in.addr.resource.mode, in.addr.resource.type, in.provider_node,
                                        in.provider_config, ctx, diags);
    if (!provider) return;
    Value proposed = ProposedNewValue(*in.schema, Value::Null(), in.config);
    PlanResult planned = provider->PlanResourceChange(ctx, in.addr.resource.type, Value::Null(), proposed, in.config);
    diags.Append(planned.diags);
    if (planned.diags.HasErrors()) return;
    OperationSlots::Held slot(slots_);
    if (req_.progress) req_.progress(address, "Looking for what an interrupted create made...");
    ReadResult found = provider->FindInterruptedCreate(ctx, in.addr.resource.type,
                                                       planned.planned.IsNull() ? proposed : planned.planned);
    diags.AppendFor(found.diags, address);
    if (found.diags.HasErrors()) return;
    std::lock_guard lock(mu_);
    interrupted_creates_[address] = {std::move(found), in.schema->create_recovery, deps_[in.node]};
  }

  // A destroy that must look for what interrupted creates made reads the data sources, as
  // a normal plan does: their values are often part of a natural key (a policy ARN built
  // from aws_partition). A data source that cannot be read only leaves its value unknown
  // (the lookups that need it cannot tell), with a warning: it never stops the destroy.
  Value ReadDataForLookups(const InstanceHookInput& in, Diagnostics& diags) {
    Value planned = PlannedInstanceValue(*in.schema, in.config);
    if (!in.config.IsWhollyKnown()) return planned;
    std::string address = in.addr.ToString();
    OperationContext ctx = Context(address);
    Diagnostics reading;
    Provider* provider = providers_.For(in.addr.resource.mode, in.addr.resource.type, in.provider_node,
                                        in.provider_config, ctx, reading);
    ReadResult read = provider ? provider->ReadDataSource(ctx, in.addr.resource.type, in.config) : ReadResult{};
    reading.AppendFor(read.diags, address);
    if (provider && !reading.HasErrors()) return read.state;
    for (const Diagnostic& d : reading) {
      diags.Add(Diagnostic{Severity::Warning, d.summary,
                           d.detail + " (read only to look for what interrupted creates made; those that need it stay "
                                      "in state)",
                           d.subject, address, d.expression});
    }
    return planned;
  }

  Value PlanData(const InstanceHookInput& in, Provider& provider, const std::string& provider_name,
                 const OperationContext& ctx, Diagnostics& diags) {
    bool config_known = in.config.IsWhollyKnown();
    if (config_known && !DependencyChanges(in.node) && req_.mode == PlanMode::Normal) {
      ReadResult read = provider.ReadDataSource(ctx, in.addr.resource.type, in.config);
      diags.Append(read.diags);
      if (read.diags.HasErrors()) return PlannedInstanceValue(*in.schema, in.config);
      return read.state;
    }
    if (req_.mode != PlanMode::Normal) {
      if (config_known) {
        ReadResult read = provider.ReadDataSource(ctx, in.addr.resource.type, in.config);
        diags.Append(read.diags);
        if (!read.diags.HasErrors()) return read.state;
      }
      return PlannedInstanceValue(*in.schema, in.config);
    }
    ResourceInstanceChange c = NewChange(in, provider_name);
    c.action = Action::Read;
    c.reason = config_known ? ActionReason::ReadBecauseDependencyPending : ActionReason::ReadBecauseConfigUnknown;
    c.after = PlannedInstanceValue(*in.schema, in.config);
    Value after = c.after;
    Record(std::move(c));
    return after;
  }

  Value PlanManaged(const InstanceHookInput& in, const state::ResourceInstanceState* prior, Provider& provider,
                    const std::string& provider_name, const OperationContext& ctx, Diagnostics& diags) {
    const std::string& type = in.addr.resource.type;
    const ResourceConfig& config = *in.graph_node->resource;
    ResourceInstanceChange c = NewChange(in, provider_name);
    ActionInputs ai;
    bool interrupted_create = prior && prior->status == state::ResourceStatus::PendingCreate;
    if (interrupted_create) c.idempotency_token = prior->idempotency_token;
    bool has_object = prior && !interrupted_create && prior->attributes.IsMapping();
    Value before = has_object ? prior->attributes : Value::Null();
    if (!prior && in.import_id && req_.mode == PlanMode::Normal) {
      std::optional<Value> imported = ImportObject(in, *in.import_id, provider, ctx, diags);
      if (!imported) return PlannedInstanceValue(*in.schema, in.config);
      c.importing_id = *in.import_id;
      has_object = true;
      before = *imported;
    }
    if (has_object && req_.refresh && !c.importing_id) {
      OperationContext read_ctx = ctx;
      SetDeadline(read_ctx, c.timeouts, state::OperationAction::Read);
      ReadResult read = Refresh(in.addr.ToString(), type, in.provider_node, provider, read_ctx, before);
      if (RanOutOfTime(read_ctx, read.diags)) {
        read.diags = TimeoutDiagnostics(in.addr.ToString(), c.timeouts, state::OperationAction::Read, read.diags,
                                        "Nothing was planned for it; state is unchanged.");
      }
      diags.Append(read.diags);
      if (read.diags.HasErrors()) return before;
      if (read.gone) {
        ai.gone = true;
        has_object = false;
        RecordDrift(DriftChange(c, before, Value::Null(), Action::Delete));
        before = Value::Null();
      } else {
        if (!Unmarked(read.state).Equals(Unmarked(before))) RecordDrift(DriftChange(c, before, read.state, Action::Update));
        before = read.state;
      }
    }
    if (req_.mode == PlanMode::RefreshOnly) {
      c.action = Action::NoOp;
      c.before = before;
      c.after = before;
      Record(c);
      return has_object ? before : PlannedInstanceValue(*in.schema, in.config);
    }

    IgnoreChanges ignore = ParseIgnoreChanges(config.lifecycle, diags);
    Value proposed = ProposedNewValue(*in.schema, before, in.config);
    if (has_object) proposed = ApplyIgnoreChanges(before, proposed, ignore);
    PlanResult planned = provider.PlanResourceChange(ctx, type, before, proposed, in.config);
    diags.Append(planned.diags);
    if (planned.diags.HasErrors()) return PlannedInstanceValue(*in.schema, in.config);
    Value after = planned.planned.IsNull() ? proposed : planned.planned;
    if (has_object) after = ApplyIgnoreChanges(before, after, ignore);

    ai.prior_exists = has_object;
    ai.prior = before;
    ai.planned = after;
    ai.requires_replace = RequiresReplace(*in.schema, before, after);
    for (const AttrPath& p : planned.requires_replace) {
      if (std::find(ai.requires_replace.begin(), ai.requires_replace.end(), p) == ai.requires_replace.end() &&
          !Unmarked(ValueAtPath(before, p)).Equals(Unmarked(ValueAtPath(after, p)))) {
        ai.requires_replace.push_back(p);
      }
    }
    ai.create_before_destroy = config.lifecycle.create_before_destroy;
    ai.tainted = has_object && prior && prior->status == state::ResourceStatus::Tainted;
    ai.replace_requested = replace_.count(in.addr.ToString()) != 0;
    if (!planned.ignored_paths.empty() && has_object) {
      IgnoreChanges owned{false, planned.ignored_paths};
      ai.planned = ApplyIgnoreChanges(before, after, owned);
    }
    ActionDecision decision = DecideAction(ai);
    if (interrupted_create && decision.action == Action::Create) {
      decision.reason = ActionReason::CreateAfterInterruption;
      c.recovery = in.schema->create_recovery;
    }
    if (auto error = CheckPreventDestroy(in.addr, decision.action, config.lifecycle.prevent_destroy)) {
      diags.Error("Instance cannot be destroyed", *error, config.lifecycle.range.IsKnown() ? config.lifecycle.range : config.range);
    }
    if (IsReplace(decision.action)) {
      // The replacement is a new object: planned as a create, so what the provider computes
      // (ids, ARNs) is unknown instead of carried over from the object being replaced.
      Value fresh = ProposedNewValue(*in.schema, Value::Null(), in.config);
      PlanResult as_create = provider.PlanResourceChange(ctx, type, Value::Null(), fresh, in.config);
      diags.Append(as_create.diags);
      if (as_create.diags.HasErrors()) return PlannedInstanceValue(*in.schema, in.config);
      after = as_create.planned.IsNull() ? fresh : as_create.planned;
    }
    c.action = decision.action;
    c.reason = decision.reason;
    c.before = before;
    c.after = after;
    if (IsReplace(c.action)) c.requires_replace = ai.requires_replace;
    if (c.idempotency_token.empty() && (c.action == Action::Create || IsReplace(c.action))) {
      c.idempotency_token = NewToken(c.addr);
    }
    Record(c);
    return after;
  }

  static ResourceInstanceChange DriftChange(const ResourceInstanceChange& base, const Value& before, const Value& after,
                                            Action action) {
    ResourceInstanceChange d = base;
    d.action = action;
    d.before = before;
    d.after = after;
    return d;
  }

  std::string NewToken(const ResourceInstanceAddr& addr) {
    std::lock_guard lock(mu_);
    return base::Sha256Hex(fmt::format("{}|{}|{}|{}", req_.prior->lineage, addr.ToString(), req_.prior->serial,
                                 std::chrono::steady_clock::now().time_since_epoch().count() + (token_counter_++)))
        .substr(0, 32);
  }

  // State instances that config no longer declares: deleted (after a refresh says they
  // still exist).
  void PlanOrphans() {
    const StageGraph& graph = *req_.stage->graph;
    std::vector<const state::ResourceInstanceState*> rows;
    std::vector<ResourceInstanceChange> deletes;
    for (const auto& r : prior_state_->resources) {
      std::string address = r.addr.ToString();
      if (seen_.count(address)) continue;
      if (!targets_.empty() && !targets_.MatchesAddress(r.addr)) continue;
      if (r.addr.resource.mode == ResourceMode::Data) continue;  // dropped from state by apply
      ResourceInstanceChange c = OrphanChange(r);
      if (moves_.forget.count(r.addr)) {
        c.action = Action::Forget;
        Record(std::move(c));
        continue;
      }
      c.action = Action::Delete;
      c.reason = DeleteReason(r.addr, graph, *evaluation_);
      rows.push_back(&r);
      deletes.push_back(std::move(c));
    }
    for (size_t i : RefreshOrphans(rows, deletes)) Record(std::move(deletes[i]));
  }

  // Refreshes the objects a plan would delete, `parallelism` at a time as the walk refreshes
  // the others; returns the indexes of those that still exist (in order), each with its
  // `before` read anew.
  std::vector<size_t> RefreshOrphans(const std::vector<const state::ResourceInstanceState*>& rows,
                                     std::vector<ResourceInstanceChange>& changes) {
    Dag dag;
    for (size_t i = 0; i < rows.size(); ++i) dag.AddNode();
    std::vector<char> exists(rows.size(), 0);
    WalkOptions options;
    options.parallelism = std::max(1, req_.options.parallelism);
    options.stop = req_.stop;
    WalkDag(dag, options, [&](NodeId n) {
      exists[n] = RefreshOrphan(*rows[n], changes[n]);
      return true;
    });
    std::vector<size_t> found;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (exists[i]) found.push_back(i);
    }
    return found;
  }

  void PlanDestroy() {
    std::set<std::string> chosen;
    if (!targets_.empty()) chosen = DestroyClosure();
    std::vector<const state::ResourceInstanceState*> rows;
    std::vector<ResourceInstanceChange> to_refresh;
    std::vector<ResourceInstanceChange> deletes;
    for (const auto& r : prior_state_->resources) {
      if (!targets_.empty() && !chosen.count(r.addr.ToString())) continue;
      if (r.addr.resource.mode == ResourceMode::Data) continue;
      ResourceInstanceChange c = OrphanChange(r);
      if (r.IsInterruptedCreate()) {
        if (PlanInterruptedCreate(c)) deletes.push_back(std::move(c));
        continue;
      }
      rows.push_back(&r);
      to_refresh.push_back(std::move(c));
    }
    for (size_t i : RefreshOrphans(rows, to_refresh)) deletes.push_back(std::move(to_refresh[i]));
    for (ResourceInstanceChange& c : deletes) {
      c.action = Action::Delete;
      if (const ResourceConfig* config = ConfigOf(c.addr)) {
        if (auto error = CheckPreventDestroy(c.addr, Action::Delete, config->lifecycle.prevent_destroy)) {
          diags_.Error("Instance cannot be destroyed", *error,
                       config->lifecycle.range.IsKnown() ? config->lifecycle.range : config->range);
        }
      }
      Record(std::move(c));
    }
  }

  // Terraform's forced create_before_destroy: a resource that something with
  // create_before_destroy depends on (directly or not) is replaced create-first too.
  // Otherwise its old object, deleted before the walk, would go while the dependent's old
  // object, deleted only after it, still uses it.
  void ForceCreateBeforeDestroy() {
    const StageGraph& graph = *req_.stage->graph;
    std::map<std::string, std::vector<std::string>> depends_on;  // resource -> what it reads directly
    std::vector<std::string> todo;
    for (NodeId n = 0; n < graph.nodes.size(); ++n) {
      const GraphNode& node = graph.nodes[n];
      if (node.kind != NodeKind::Resource || !node.resource) continue;
      std::string address = ResourceNodeAddress(graph, n);
      depends_on[address] = deps_[n];
      if (node.resource->lifecycle.create_before_destroy) todo.push_back(address);
    }
    std::set<std::string> forced;
    while (!todo.empty()) {
      std::string address = std::move(todo.back());
      todo.pop_back();
      for (const std::string& d : depends_on[address]) {
        if (forced.insert(d).second) todo.push_back(d);
      }
    }
    for (ResourceInstanceChange& c : changes_) {
      if (c.action != Action::DeleteThenCreate || !forced.count(c.addr.ConfigAddr().ToString())) continue;
      c.action = Action::CreateThenDelete;
      c.create_before_destroy = true;
    }
  }

  // Deposed objects — what a create_before_destroy replacement left when it was interrupted
  // or its delete failed — are deleted, by a normal plan as by a destroy, as Terraform does.
  // Not refreshed: deleting an object that is already gone succeeds.
  void PlanDeposed() {
    for (const auto& r : prior_state_->deposed) {
      if (!targets_.empty() && !targets_.MatchesAddress(r.addr)) continue;
      ResourceInstanceChange c = OrphanChange(r);
      c.previous_addr.reset();
      c.deposed = r.deposed;
      c.action = Action::Delete;
      Record(std::move(c));
    }
  }

  // What LookForInterruptedCreate learned of an instance `c` is for: true, with c.before
  // set, when the object was found (to be deleted); when nothing was made, a drift entry
  // lets the instance leave state. When the type could not tell (or config was unknown),
  // nothing is planned: the instance stays and the destroy lists it as remaining.
  bool PlanInterruptedCreate(ResourceInstanceChange& c) {
    auto it = interrupted_creates_.find(c.addr.ToString());
    if (it == interrupted_creates_.end()) return false;
    const InterruptedCreate& ic = it->second;
    c.reason = ActionReason::InterruptedCreate;
    c.recovery = ic.recovery;
    // A placeholder records no dependencies; config's order the delete among the others
    // (a NAT gateway before the address it holds).
    c.dependencies = ic.dependencies;
    const ReadResult& found = ic.found;
    if (found.gone) {
      RecordDrift(DriftChange(c, Value::Null(), Value::Null(), Action::Delete));
      return false;
    }
    if (found.state.IsNull()) return false;
    c.before = found.state;
    return true;
  }

  // The declaration of a state instance's resource, if config still has it.
  const ResourceConfig* ConfigOf(const ResourceInstanceAddr& addr) const {
    const StageGraph& graph = *req_.stage->graph;
    for (const ModuleInstance& m : graph.modules) {
      if (!(m.path == addr.module.WithoutKeys())) continue;
      const auto& table = addr.resource.mode == ResourceMode::Data ? m.data : m.resources;
      auto it = table.find(addr.resource.name);
      if (it != table.end() && graph.nodes[it->second].resource->type == addr.resource.type) {
        return graph.nodes[it->second].resource;
      }
    }
    return nullptr;
  }

  // -destroy -target X: X and every instance that depends on it.
  std::set<std::string> DestroyClosure() {
    std::set<std::string> chosen;
    // What a dependency list may name of a chosen instance: it, or its resource.
    std::set<std::string> names;
    auto choose = [&](const state::ResourceInstanceState& r) {
      chosen.insert(r.addr.ToString());
      names.insert(r.addr.ToString());
      names.insert(r.addr.WithoutKey().ToString());
      names.insert(r.addr.ConfigAddr().ToString());
    };
    for (const auto& r : prior_state_->resources) {
      if (targets_.MatchesAddress(r.addr)) choose(r);
    }
    bool grew = true;
    while (grew) {
      grew = false;
      for (const auto& r : prior_state_->resources) {
        if (chosen.count(r.addr.ToString())) continue;
        bool hit = std::any_of(r.dependencies.begin(), r.dependencies.end(),
                               [&](const std::string& d) { return names.count(d) != 0; });
        if (hit) {
          choose(r);
          grew = true;
        }
      }
    }
    return chosen;
  }

  ResourceInstanceChange OrphanChange(const state::ResourceInstanceState& r) {
    ResourceInstanceChange c;
    c.addr = r.addr;
    c.type = r.addr.resource.type;
    c.provider = r.provider;
    c.mode = "managed";
    c.schema_version = static_cast<int>(r.schema_version);
    c.dependencies = r.dependencies;
    c.before = r.attributes;
    c.previous_addr = PreviousAddress(r.addr);
    return c;
  }

  // A moved object that no change carries (-target elsewhere, a refresh that failed, a
  // data instance): the rename must still reach state, or the next plan would not find it
  // where config expects it. Recorded as a no-op that only moves.
  void PlanMovedLeftovers() {
    std::set<std::string> carried;
    for (const ResourceInstanceChange& c : changes_) carried.insert(c.addr.ToString());
    for (const auto& [to, from] : moves_.previous) {
      if (carried.count(to.ToString())) continue;
      const state::ResourceInstanceState* r = PriorOf(to.ToString());
      if (!r) continue;
      ResourceInstanceChange c = OrphanChange(*r);
      c.action = Action::NoOp;
      c.after = c.before;
      Record(std::move(c));
    }
  }

  // Terraform's "aws_vpc.main: Refreshing state... [id=vpc-1]".
  void ReportRefresh(const std::string& address, const Value& prior) const {
    if (!req_.progress) return;
    std::string id;
    if (prior.IsMapping()) {
      auto it = prior.AsMap().find("id");
      if (it != prior.AsMap().end() && it->second.IsString() && !it->second.IsSensitive()) id = it->second.AsString();
    }
    req_.progress(address, "Refreshing state..." + (id.empty() ? std::string() : " [id=" + id + "]"));
  }

  // An import entry's object, as its provider reads it by id (Terraform's "Preparing
  // import..."); nullopt after an error, which names the address and the id.
  std::optional<Value> ImportObject(const InstanceHookInput& in, const std::string& id, Provider& provider,
                                    const OperationContext& ctx, Diagnostics& diags) {
    std::string address = in.addr.ToString();
    OperationSlots::Held slot(slots_);
    if (req_.progress) req_.progress(address, "Preparing import... [id=" + id + "]");
    ApplyResult imported = provider.ImportResource(ctx, in.addr.resource.type, id);
    diags.AppendFor(imported.diags, address);
    if (imported.diags.HasErrors()) return std::nullopt;
    if (!imported.state.IsMapping()) {
      diags.Error("Cannot import non-existent remote object",
                  fmt::format("While importing {} from \"{}\", the provider found no object with that id. Only objects "
                              "that exist can be imported: check the id and the provider's region or endpoint, or remove "
                              "the import entry to let \"strata apply\" create the object.",
                              address, id),
                  in.graph_node->range);
      return std::nullopt;
    }
    return imported.state;
  }

  // Import entries whose address config does not declare: an error, unless the plan writes
  // their configuration (-generate-config-out). Returns the module file written for them.
  std::string CheckImportTargets(const StageEvaluation& evaluation) {
    GeneratedConfig generated;
    for (const auto& [address, target] : evaluation.Imports()) {
      if (seen_.count(address) || PriorOf(address)) continue;
      if (req_.generate_config && target.addr.module.IsRoot() && target.addr.key.IsNone()) {
        GenerateImport(evaluation, target, generated);
        continue;
      }
      diags_.Error("Configuration for import target does not exist",
                   fmt::format("The import entry names {}, which the configuration does not declare{}. Declare the "
                               "resource (with the count or for_each that makes this instance), or run \"strata plan "
                               "-generate-config-out=FILE\" to have its configuration written.",
                               address, target.addr.key.IsNone() ? "" : " with this instance key"),
                   !target.config ? SourceRange{} : target.config->to ? target.config->to->range() : target.config->range);
    }
    return generated.Text();
  }

  // An import without configuration: the object is read through the default (or the
  // entry's) provider block of the root module, planned as an import that changes nothing,
  // and its arguments written out.
  void GenerateImport(const StageEvaluation& evaluation, const ImportTarget& target, GeneratedConfig& generated) {
    const std::string address = target.addr.ToString();
    const std::string& type = target.addr.resource.type;
    const ResourceSchema* schema = req_.engine->schemas().Find(ResourceMode::Managed, type);
    if (!schema) {
      diags_.Error("Unknown resource type", fmt::format("The import entry names {}, but no provider serves the type {}.", address, type),
                   target.config && target.config->to ? target.config->to->range() : SourceRange{});
      return;
    }
    std::string key = target.config && !target.config->provider.empty() ? target.config->provider : ProviderOfType(type);
    const StageGraph& graph = *req_.stage->graph;
    NodeId block = FindProviderBlock(graph, 0, key);
    OperationContext ctx = Context(address);
    Provider* provider = providers_.For(ResourceMode::Managed, type, block, block != kNoNode ? evaluation.ResultOf(block) : Value::Null(),
                                        ctx, diags_);
    if (!provider) return;
    OperationSlots::Held slot(slots_);
    if (req_.progress) req_.progress(address, "Preparing import... [id=" + target.id + "]");
    ApplyResult imported = provider->ImportResource(ctx, type, target.id);
    diags_.AppendFor(imported.diags, address);
    if (imported.diags.HasErrors() || !imported.state.IsMapping()) return;
    ResourceInstanceChange c;
    c.addr = target.addr;
    c.type = type;
    c.provider = ProviderSet::SourceAddress(providers_.NameFor(ResourceMode::Managed, type) + ProviderAliasSuffix(key));
    c.mode = "managed";
    c.schema_version = schema->version;
    c.action = Action::NoOp;
    c.before = imported.state;
    c.after = imported.state;
    c.importing_id = target.id;
    c.generated_config = true;
    generated.Add(target, *schema, imported.state);
    Record(std::move(c));
  }

  // The instances whose refresh may be read in batches (refresh_batches.h): every managed
  // object in state that a refresh reads and whose provider reads its type in batches (asked
  // of an instance never configured), under the provider block that will read it (the
  // configuration's, or for a destroy and an orphan the one state recorded). Not with
  // -target (a few instances), nor for one whose configuration sets a read timeout (its
  // own deadline).
  std::vector<RefreshCandidate> RefreshCandidates() const {
    std::vector<RefreshCandidate> out;
    if (!req_.refresh || !targets_.empty()) return out;
    const StageGraph& graph = *req_.stage->graph;
    std::map<std::string, bool> batched_types;  // type -> its provider reads it in batches
    std::map<std::string, std::unique_ptr<Provider>> unconfigured;  // by provider name, only to ask
    auto batched = [&](const std::string& type) {
      auto [it, added] = batched_types.try_emplace(type, false);
      if (!added) return it->second;
      std::optional<std::string> name = req_.providers->ProviderFor(ResourceMode::Managed, type);
      if (!name) return false;
      std::unique_ptr<Provider>& provider = unconfigured[*name];
      if (!provider) provider = req_.providers->Create(*name);
      return it->second = provider && provider->ReadsInBatches(type);
    };
    for (const auto& r : prior_state_->resources) {
      if (r.addr.resource.mode != ResourceMode::Managed || r.status == state::ResourceStatus::PendingCreate) continue;
      if (!r.attributes.IsMapping() || moves_.forget.count(r.addr) || !batched(r.addr.resource.type)) continue;
      const ResourceConfig* config = ConfigOf(r.addr);
      if (config && config->timeouts.durations.count("read")) continue;
      const std::string& type = r.addr.resource.type;
      std::string key = config && req_.mode != PlanMode::Destroy ? ProviderKeyOf(*config) : ProviderKeyOfRecord(r.provider, type);
      out.push_back({r.addr.ToString(), type, ProviderBlockFor(graph, r.addr, key), &r.attributes});
    }
    return out;
  }

  // An instance's refresh: its batch's answer (refresh_batches.h), or a read of its own.
  ReadResult Refresh(const std::string& address, const std::string& type, NodeId block, Provider& provider,
                     const OperationContext& ctx, const Value& prior) {
    if (std::optional<ReadResult> batched = batches_->Take(address, type, block, provider)) return std::move(*batched);
    OperationSlots::Held slot(slots_);
    ReportRefresh(address, prior);
    return provider.ReadResource(ctx, type, prior);
  }

  // Refreshes an instance about to be deleted; false when there is nothing left to delete.
  // Called from RefreshOrphans' threads: diagnostics are gathered locally, then added.
  bool RefreshOrphan(const state::ResourceInstanceState& r, ResourceInstanceChange& c) {
    if (r.IsInterruptedCreate()) return false;  // no object to read (see PlanInterruptedCreate)
    if (!req_.refresh) return true;
    OperationContext ctx = Context(c.addr.ToString());
    NodeId block = ProviderBlockFor(*req_.stage->graph, r.addr, ProviderKeyOfRecord(r.provider, r.addr.resource.type));
    Value settings = block != kNoNode && evaluation_ ? evaluation_->ResultOf(block) : Value::Null();
    Diagnostics local;
    Provider* provider = providers_.For(r.addr.resource.mode, r.addr.resource.type, block, settings, ctx, local);
    ReadResult read;
    if (provider) {
      read = Refresh(c.addr.ToString(), r.addr.resource.type, block, *provider, ctx, r.attributes);
      local.AppendFor(read.diags, c.addr.ToString());
    }
    {
      std::lock_guard lock(mu_);
      diags_.Append(local);
    }
    if (!provider || read.diags.HasErrors()) return false;
    if (read.gone) {
      RecordDrift(DriftChange(c, r.attributes, Value::Null(), Action::Delete));
      return false;
    }
    c.before = read.state;
    return true;
  }

  void PlanOutputs(Plan& plan, const StageEvaluation& evaluation) {
    std::map<std::string, Value> after = evaluation.RootOutputs();
    const auto& declared = req_.stage->graph->modules[0].config->outputs;
    if (req_.mode == PlanMode::Destroy) after.clear();
    for (const auto& [name, value] : after) {
      OutputChange oc;
      oc.name = name;
      oc.after = value;
      auto it = declared.find(name);
      oc.sensitive = it != declared.end() && it->second.sensitive;
      const state::OutputState* before = req_.prior->FindOutput(name);
      if (!before) {
        oc.action = Action::Create;
      } else {
        oc.before = before->value;
        bool same = value.IsWhollyKnown() && Unmarked(value).Equals(Unmarked(before->value));
        oc.action = same ? Action::NoOp : Action::Update;
      }
      plan.output_changes.push_back(std::move(oc));
    }
    for (const auto& o : req_.prior->outputs) {
      if (after.count(o.name)) continue;
      OutputChange oc;
      oc.name = o.name;
      oc.action = Action::Delete;
      oc.before = o.value;
      oc.sensitive = o.sensitive;
      plan.output_changes.push_back(std::move(oc));
    }
  }

  const PlanRequest& req_;
  Diagnostics& diags_;
  //! When this plan began, whole seconds: plantimestamp()'s one value for the run.
  std::chrono::system_clock::time_point plan_time_;
  ProviderSet providers_;
  TargetSet targets_;
  OperationSlots slots_;
  const StageEvaluation* evaluation_ = nullptr;
  //! The refreshes read in batches, per provider block and type.
  std::unique_ptr<RefreshBatches> batches_;
  std::vector<bool> targeted_nodes_;
  std::map<std::string, const state::ResourceInstanceState*> prior_;
  std::set<std::string> replace_;
  std::vector<std::vector<std::string>> deps_;
  std::mutex mu_;
  std::vector<ResourceInstanceChange> changes_;
  std::vector<ResourceInstanceChange> drift_;
  std::set<std::string> seen_;
  std::set<std::string> changed_resources_;
  //! The prior state the plan is made against: the store's, or moved_prior_ after moved and
  //! removed entries (req_.prior stays the store's: the saved plan's digests are of it).
  const state::StageState* prior_state_ = nullptr;
  state::StageState moved_prior_;
  StateMoves moves_;
  // Destroy only: what each interrupted create made, as its provider found it.
  struct InterruptedCreate {
    ReadResult found;
    CreateRecovery recovery;
    std::vector<std::string> dependencies;
  };
  std::map<std::string, InterruptedCreate> interrupted_creates_;
  bool interrupted_creates_in_state_ = false;
  uint64_t token_counter_ = 0;
};

}  // namespace

PlanOutcome PlanStage(const PlanRequest& request, Diagnostics& diags) {
  state::StageState empty;
  PlanRequest req = request;
  if (!req.prior) req.prior = &empty;
  return Planner(req, diags).Run();
}

}  // namespace strata
