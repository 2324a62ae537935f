#include "engine/core/applier.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "engine/base/hash.h"
#include "engine/base/time_format.h"
#include "engine/core/schema_check.h"
#include "engine/graph/walker.h"
#include "engine/plan/rules.h"
#include "engine/core/apply_outputs.h"
#include "engine/core/delete_order.h"
#include "engine/core/lifecycle.h"
#include "engine/core/operation_runner.h"
#include "engine/core/ordering_classes.h"
#include "engine/core/provider_set.h"
#include "engine/core/resource_dependencies.h"
#include "engine/core/upstream_reads.h"

namespace strata {

namespace {

using state::OperationAction;

// The plan's known values must survive re-planning with the values known at apply time
// (Terraform's "Provider produced inconsistent final plan").
std::vector<AttrPath> InconsistentPaths(const Value& planned, const Value& final_value) {
  std::vector<AttrPath> bad;
  for (const AttrPath& p : DiffAttributes(planned.DeepUnmark(), final_value.DeepUnmark())) {
    if (ValueAtPath(planned, p).IsWhollyKnown()) bad.push_back(p);
  }
  return bad;
}

class Applier {
 public:
  Applier(const ApplyRequest& request, Diagnostics& diags)
      : req_(request),
        diags_(diags),
        providers_(*request.providers),
        classes_(*request.plan, *request.providers) {
    // By address: the changes of current objects (a deposed object's delete is not one).
    for (const ResourceInstanceChange& c : request.plan->changes) {
      if (c.deposed.empty()) changes_[c.addr.ToString()] = &c;
    }
    if (request.options.stage_outputs) upstream_.emplace(*request.options.stage_outputs);
  }

  ApplyOutcome Run() {
    const Plan& plan = *req_.plan;
    const char* operation = plan.mode == PlanMode::Destroy ? "destroy" : plan.mode == PlanMode::RefreshOnly ? "refresh" : "apply";
    auto cs = req_.store->BeginChangeSet(req_.lock_id, plan.stage, operation);
    if (!cs.ok()) {
      diags_.Add(cs.status().ToDiagnostic());
      return outcome_;
    }
    cs_ = &*cs;
    runner_.emplace(OperationRunner::Options{req_.store, cs_, req_.options.parallelism, req_.progress_interval,
                                             req_.on_event, [this](const std::string& address) { Failed(address); },
                                             req_.stop});
    CloseInterruptedOperations();
    auto loaded = req_.store->LoadStage(plan.stage);
    if (!loaded.ok()) {
      diags_.Add(loaded.status().ToDiagnostic());
      return outcome_;
    }
    state_ = std::move(*loaded);
    RecordStateOnlyChanges();

    if (plan.mode == PlanMode::RefreshOnly) {
      ApplyDrift();
    } else {
      RecordRefresh();
      RunDeletes(DeletesBeforeWalk());
      if (plan.mode == PlanMode::Normal && !Stopped()) {
        RunMainWalk();
        RunDeletes(DeletesAfterWalk());
      }
    }
    DropUnreadData();
    Commit();
    if (plan.mode == PlanMode::Destroy) ReportLeftovers();
    return outcome_;
  }

 private:
  bool Stopped() const { return req_.stop && req_.stop->load(); }

  // Operations a dead process left pending were reconciled by the plan (refresh, or a
  // create sent again with the same token): close them so the instances return to their
  // recorded status before this apply's own operations begin. An interrupted create this
  // plan does not send again (a destroy, a -target elsewhere, a removed resource) keeps its
  // placeholder: the object it made may exist, and only its token can find it.
  void CloseInterruptedOperations() {
    auto before = cs_->pending.empty() ? state::StateResult<state::StageState>(state::StageState{})
                                       : req_.store->LoadStage(req_.plan->stage);
    for (const state::OperationRecord& op : cs_->pending) {
      std::optional<state::ResourceInstanceState> keep;
      const state::ResourceInstanceState* row = before.ok() ? before->FindResource(op.addr) : nullptr;
      auto planned = changes_.find(op.addr.ToString());
      bool created_again = planned != changes_.end() && planned->second->action == Action::Create;
      if (op.action == state::OperationAction::Create && row && row->IsInterruptedCreate() && !created_again) keep = *row;
      CheckStored(req_.store->FailOperation(*cs_, op.id, "interrupted: the process stopped before the provider answered", keep),
                  op.addr.ToString(), diags_);
    }
  }

  // Diagnostics of a walk node: the evaluation walk gathers them itself; the delete walk
  // hands them over under the lock.
  void AddDiags(const Diagnostics& local) {
    std::lock_guard lock(mu_);
    diags_.Append(local);
  }

  void Count(Action action) {
    std::lock_guard lock(mu_);
    if (action == Action::Create) ++outcome_.added;
    if (action == Action::Update) ++outcome_.changed;
    if (action == Action::Delete) ++outcome_.destroyed;
  }

  void Failed(const std::string& address) {
    std::lock_guard lock(mu_);
    outcome_.failed.push_back(address);
  }

  Provider* ProviderFor(const ResourceInstanceChange& c, NodeId block, const Value& settings, Diagnostics& out) {
    OperationContext ctx = runner_->Context(c.addr.ToString(), OperationAction::Read, "", "");
    Diagnostics d;
    Provider* p = providers_.For(c.addr.resource.mode, c.type, block, settings, ctx, d);
    out.AppendFor(d, c.addr.ToString());
    return p;
  }

  // --- Deletes, in reverse dependency order ---

  // A destroy deleting what an interrupted create made (found by the plan): the object is
  // recorded in state first, so that an interruption of its delete leaves an ordinary
  // entry to reconcile rather than a placeholder whose token the delete has replaced.
  // Returns the entry, or null when it could not be written.
  const state::ResourceInstanceState* RecordFoundObject(const ResourceInstanceChange& c,
                                                        const state::ResourceInstanceState& placeholder,
                                                        Diagnostics& out) {
    state::ResourceInstanceState found = placeholder;
    found.attributes = c.before;
    found.dependencies = c.dependencies;
    found.status = state::ResourceStatus::Created;
    if (!CheckStored(runner_->Store([&] { return req_.store->PutResource(*cs_, found); }), c.addr.ToString(), out)) return nullptr;
    std::lock_guard lock(mu_);
    state::ResourceInstanceState* entry = FindInMemory(c.addr);
    if (entry) *entry = found;
    return entry;
  }

  // Before the main walk: the deletes of current objects, and the delete half of every
  // delete-then-create replacement, together in reverse dependency order, so that a
  // replaced object's dependents that are replaced too go first (Terraform's order: destroy
  // B, destroy A, create A, create B). A destroy deletes deposed objects with the rest.
  std::vector<const ResourceInstanceChange*> DeletesBeforeWalk() {
    bool destroy = req_.plan->mode == PlanMode::Destroy;
    std::vector<const ResourceInstanceChange*> deletes;
    for (const ResourceInstanceChange& c : req_.plan->changes) {
      if (c.action == Action::Delete && (c.deposed.empty() || destroy)) deletes.push_back(&c);
      if (c.action == Action::DeleteThenCreate && IsObject(state_.FindResource(c.addr))) deletes.push_back(&c);
    }
    return deletes;
  }

  // After the main walk: deposed objects — those the plan found left over, and those this
  // apply's create_before_destroy replacements deposed — once their replacements exist and
  // everything that depends on them has been updated. After a failed operation they stay
  // deposed (an old object may still be in use by a dependent that was not updated); the
  // next plan deletes them.
  std::vector<const ResourceInstanceChange*> DeletesAfterWalk() {
    std::vector<const ResourceInstanceChange*> deletes;
    for (const ResourceInstanceChange& c : req_.plan->changes) {
      if (c.action == Action::Delete && !c.deposed.empty()) deletes.push_back(&c);
    }
    for (const ResourceInstanceChange& c : deposed_now_) deletes.push_back(&c);
    if (deletes.empty() || Stopped()) return {};
    if (!outcome_.failed.empty() || outcome_.interrupted) {
      diags_.Warning("Deposed objects kept",
                     fmt::format("{} old object(s) replaced with create_before_destroy were not deleted because the "
                                 "apply had errors: a dependent may still use them. They stay in state as deposed "
                                 "objects, and the next apply deletes them.",
                                 deletes.size()));
      return {};
    }
    return deletes;
  }

  // Whether a state entry holds an object (not the placeholder of an interrupted create).
  static bool IsObject(const state::ResourceInstanceState* current) {
    return current && current->attributes.IsMapping() && current->status != state::ResourceStatus::PendingCreate;
  }

  void RunDeletes(const std::vector<const ResourceInstanceChange*>& deletes) {
    if (deletes.empty()) return;
    Dag dag = DeleteOrder(deletes);
    size_t barriers_from = classes_.OrderDeletes(dag, deletes, diags_);
    std::unique_ptr<StageEvaluation> settings = EvaluateProviderSettings();
    WalkOptions options;
    options.parallelism = req_.options.parallelism;
    options.stop = req_.stop;
    std::vector<WalkStatus> status = WalkDag(dag, options, [&](NodeId n) {
      if (n >= barriers_from) return true;  // a barrier between ordering classes
      const ResourceInstanceChange& c = *deletes[n];
      Diagnostics local;
      NodeId block = ProviderBlockFor(*req_.stage->graph, c.addr, ProviderKeyOfRecord(c.provider, c.type));
      Provider* provider =
          ProviderFor(c, block, block != kNoNode && settings ? settings->ResultOf(block) : Value::Null(), local);
      const state::ResourceInstanceState* current = c.deposed.empty() ? state_.FindResource(c.addr) : nullptr;
      bool recorded = true;
      if (provider && current && current->IsInterruptedCreate() && c.before.IsMapping()) {
        current = RecordFoundObject(c, *current, local);
        recorded = current != nullptr;
      }
      Value prior = current && current->attributes.IsMapping() ? current->attributes : c.before;
      bool ok = provider && recorded && runner_->Run(c, *provider, OperationAction::Delete, prior, Value::Null(), local);
      AddDiags(local);
      if (ok) Count(Action::Delete);
      if (ok && c.action == Action::DeleteThenCreate) {
        std::lock_guard lock(mu_);
        replaced_deleted_.insert(c.addr.ToString());
      }
      return ok;
    });
    for (NodeId n = 0; n < deletes.size(); ++n) {
      if (status[n] == WalkStatus::Skipped) outcome_.skipped.push_back(deletes[n]->ObjectName());
      if (status[n] == WalkStatus::Pending) {
        outcome_.interrupted = true;
        outcome_.not_started.push_back(deletes[n]->ObjectName());
      }
    }
    // The main walk creates the replacements of the objects deleted here from nothing.
    if (!replaced_deleted_.empty()) {
      std::erase_if(state_.resources,
                    [&](const state::ResourceInstanceState& r) { return replaced_deleted_.count(r.addr.ToString()) != 0; });
    }
  }

  // Provider blocks' settings for the deletes, which run before the main walk: the stage
  // evaluated with every resource at its state (or planned) value and its data sources
  // read; no resource's provider is called.
  std::unique_ptr<StageEvaluation> EvaluateProviderSettings() {
    const StageGraph& graph = *req_.stage->graph;
    bool any_block = std::any_of(graph.nodes.begin(), graph.nodes.end(), [](const GraphNode& n) { return n.kind == NodeKind::Provider; });
    if (!any_block) return nullptr;
    Diagnostics ignored;
    EvaluateOptions eval = EvaluationOptionsFromPlan(ignored);
    eval.on_instance = [this](const InstanceHookInput& in, Diagnostics&) {
      // Data sources are read again (state holds only what the last apply read): a provider
      // block may need one, as the kubernetes provider needs a fresh token from
      // aws_eks_cluster_auth. One that cannot be read leaves what uses it unknown.
      if (in.addr.resource.mode == ResourceMode::Data) {
        if (!in.config.IsWhollyKnown()) return PlannedInstanceValue(*in.schema, in.config);
        Diagnostics unread;
        Value read = ReadData(in, nullptr, unread);
        return unread.HasErrors() ? PlannedInstanceValue(*in.schema, in.config) : read;
      }
      const state::ResourceInstanceState* current = state_.FindResource(in.addr);
      if (current && current->attributes.IsMapping()) return current->attributes;
      auto it = changes_.find(in.addr.ToString());
      return it != changes_.end() ? it->second->after : PlannedInstanceValue(*in.schema, in.config);
    };
    auto evaluation = std::make_unique<StageEvaluation>(graph, &req_.engine->schemas(), std::move(eval));
    evaluation->Run(ignored);
    return evaluation;
  }

  EvaluateOptions EvaluationOptionsFromPlan(Diagnostics& diags) {
    EngineOptions options = req_.options;
    options.variables = {};
    if (upstream_) options.stage_outputs = &*upstream_;
    EvaluateOptions eval = req_.engine->EvaluationOptions(*req_.project, *req_.stage, options, diags);
    eval.root_variables.clear();
    for (const auto& [name, value] : req_.plan->variables) eval.root_variables[name] = RootVariableValue{value, "the plan", {}};
    // plantimestamp() answers the plan's time again; a plan file from before it was recorded
    // has none, and then the apply's start stands in for it.
    std::chrono::system_clock::time_point plan_time;
    eval.plan_time = base::ParseRfc3339(req_.plan->timestamp, &plan_time) ? plan_time : std::chrono::system_clock::now();
    return eval;
  }

  // --- Creates, updates and replaces, in dependency order ---

  void RunMainWalk() {
    data_dependencies_ = ResourceDependencies(*req_.stage->graph);
    EvaluateOptions eval = EvaluationOptionsFromPlan(diags_);
    eval.stop = req_.stop;
    eval.on_instance = [this](const InstanceHookInput& in, Diagnostics& diags) { return OnInstance(in, diags); };
    eval.instance_class = [this](const ResourceInstanceAddr& addr) { return classes_.Of(addr.ToString()); };
    // The stage's graph with the order ordering classes add between resources.
    ordered_graph_ = std::make_unique<StageGraph>(*req_.stage->graph);
    classes_.OrderResources(*ordered_graph_, diags_);
    evaluation_ = std::make_unique<StageEvaluation>(*ordered_graph_, &req_.engine->schemas(), std::move(eval));
    evaluation_->Run(diags_);
    const StageGraph& graph = *ordered_graph_;
    const auto& status = evaluation_->NodeStatus();
    for (NodeId n = 0; n < status.size(); ++n) {
      const GraphNode& node = graph.nodes[n];
      if (node.kind != NodeKind::Resource) continue;
      if (status[n] == WalkStatus::Pending) {
        outcome_.interrupted = true;
        if (HasChangeFor(graph.Label(n))) outcome_.not_started.push_back(graph.Label(n));
      }
      if (status[n] == WalkStatus::Skipped && HasChangeFor(graph.Label(n))) outcome_.skipped.push_back(graph.Label(n));
    }
  }

  bool HasChangeFor(const std::string& resource_address) const {
    for (const auto& [address, c] : changes_) {
      if (c->action != Action::NoOp && c->addr.ConfigAddr().ToString() == resource_address) return true;
    }
    return false;
  }

  Value OnInstance(const InstanceHookInput& in, Diagnostics& diags) {
    std::string address = in.addr.ToString();
    auto it = changes_.find(address);
    const state::ResourceInstanceState* current = state_.FindResource(in.addr);
    if (in.addr.resource.mode == ResourceMode::Data) {
      Value read = ReadData(in, it == changes_.end() ? nullptr : it->second, diags);
      if (read.IsMapping() && read.IsWhollyKnown()) RecordData(in, read, current, diags);
      return read;
    }
    if (it == changes_.end() || it->second->action == Action::NoOp || it->second->action == Action::Delete) {
      // Not part of this plan (-target), or nothing to do: state stands.
      if (current && current->attributes.IsMapping()) return current->attributes;
      return it != changes_.end() ? it->second->after : PlannedInstanceValue(*in.schema, in.config);
    }
    if (Stopped()) {
      // Listed once in the report (ApplyOutcome::not_started), not as an error each.
      std::lock_guard lock(mu_);
      outcome_.interrupted = true;
      outcome_.not_started.push_back(address);
      return Value::Unknown();
    }
    const ResourceInstanceChange& c = *it->second;
    Provider* provider = ProviderFor(c, in.provider_node, in.provider_config, diags);
    if (!provider) return Value::Unknown();
    Value prior = IsObject(current) ? current->attributes : Value::Null();
    // Planned anew from config with the values now known (a replacement starts from nothing).
    bool creating = c.action != Action::Update;
    Value base = creating ? Value::Null() : prior;
    Value proposed = ProposedNewValue(*in.schema, base, in.config);
    OperationContext ctx = runner_->Context(address, OperationAction::Read, "", "");
    PlanResult final_plan = provider->PlanResourceChange(ctx, c.type, base, proposed, in.config);
    diags.Append(final_plan.diags);
    if (final_plan.diags.HasErrors()) {
      Failed(address);
      return Value::Unknown();
    }
    Value planned = final_plan.planned.IsNull() ? proposed : final_plan.planned;
    if (!creating) {
      Diagnostics reported_at_plan;
      planned = ApplyIgnoreChanges(prior, planned, ParseIgnoreChanges(in.graph_node->resource->lifecycle, reported_at_plan));
    }
    std::vector<AttrPath> bad = InconsistentPaths(c.after, planned);
    if (!bad.empty()) {
      std::string list;
      for (const AttrPath& p : bad) list += (list.empty() ? "" : ", ") + p.ToString();
      diags.Error("Provider produced inconsistent final plan",
                  fmt::format("When applying the change to {}, the values known at plan time changed at {}. This is a bug "
                              "in the provider; plan again and apply the new plan.",
                              address, list));
      Failed(address);
      return Value::Unknown();
    }
    std::optional<Value> result;
    switch (c.action) {
      case Action::Update:
        result = runner_->Run(c, *provider, OperationAction::Update, prior, planned, diags);
        if (result) Count(Action::Update);
        break;
      case Action::Create:
        result = runner_->Run(c, *provider, OperationAction::Create, Value::Null(), planned, diags);
        if (result) Count(Action::Create);
        break;
      case Action::DeleteThenCreate:
        // The old object was deleted by the delete walk (RunDeletes), after its dependents.
        if (!prior.IsNull()) {
          diags.Error("Object not replaced",
                      fmt::format("{} was not replaced: its old object could not be deleted (see the errors above), "
                                  "so its replacement was not created.",
                                  address));
          return Value::Unknown();
        }
        result = runner_->Run(c, *provider, OperationAction::Create, Value::Null(), planned, diags);
        if (result) Count(Action::Create);
        break;
      case Action::CreateThenDelete: result = CreateBeforeDestroy(c, *provider, prior, planned, diags); break;
      default: break;
    }
    return result ? *result : Value::Unknown();
  }

  // --- create_before_destroy ---

  // The old object is deposed (one durable step) before the replacement's create is sent,
  // so that the create is journaled like any other, an interruption at any point leaves
  // both objects findable (the deposed one in state, the new one by its token), and the old
  // one is deleted — journaled too — only after the main walk (DeletesAfterWalk). A create
  // that fails and leaves nothing brings the old object back.
  std::optional<Value> CreateBeforeDestroy(const ResourceInstanceChange& c, Provider& provider, const Value& prior,
                                           const Value& planned, Diagnostics& diags) {
    std::string address = c.addr.ToString();
    std::string key;
    if (!prior.IsNull()) {
      key = base::Sha256Hex(fmt::format("{}|{}|{}", address, c.idempotency_token,
                                        std::chrono::steady_clock::now().time_since_epoch().count()))
                .substr(0, 8);
      if (!CheckStored(runner_->Store([&] { return req_.store->DeposeResource(*cs_, c.addr, key); }), address, diags)) {
        Failed(address);
        return std::nullopt;
      }
    }
    std::optional<Value> result = runner_->Run(c, provider, OperationAction::Create, Value::Null(), planned, diags);
    if (key.empty()) {
      if (result) Count(Action::Create);
      return result;
    }
    if (!result) {
      // InvalidArgument: the failed create left an object (tainted, or pending with its
      // token) in the instance's place; the old one stays deposed for the next plan.
      state::StateStatus restored = runner_->Store([&] { return req_.store->RestoreDeposed(*cs_, c.addr, key); });
      if (!restored.ok() && restored.code() != state::StateCode::InvalidArgument) CheckStored(restored, address, diags);
      return result;
    }
    Count(Action::Create);
    ResourceInstanceChange old = c;
    old.action = Action::Delete;
    old.deposed = key;
    old.before = prior;
    old.after = Value::Null();
    old.reason = ActionReason::None;
    old.previous_addr.reset();
    old.importing_id.reset();
    std::lock_guard lock(mu_);
    deposed_now_.push_back(std::move(old));
    return result;
  }

  Value ReadData(const InstanceHookInput& in, const ResourceInstanceChange* change, Diagnostics& diags) {
    if (!in.config.IsWhollyKnown()) {
      diags.Error("Data source config not known",
                  fmt::format("{} depends on values still unknown after the resources it depends on were applied.",
                              in.addr.ToString()));
      return Value::Unknown();
    }
    ResourceInstanceChange c;
    c.addr = in.addr;
    c.type = in.addr.resource.type;
    Provider* provider = ProviderFor(change ? *change : c, in.provider_node, in.provider_config, diags);
    if (!provider) return Value::Unknown();
    ApplyEvent e;
    e.kind = ApplyEvent::Kind::Started;
    e.address = in.addr.ToString();
    e.operation = OperationAction::Read;
    if (change) runner_->Emit(e);
    auto start = std::chrono::steady_clock::now();
    ReadResult r = provider->ReadDataSource(runner_->Context(e.address, OperationAction::Read, "", ""), c.type, in.config);
    diags.Append(r.diags);
    if (r.diags.HasErrors()) return Value::Unknown();
    e.kind = ApplyEvent::Kind::Finished;
    e.id = ObjectIdOf(r.state);
    e.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    if (change) runner_->Emit(e);
    return r.state;
  }

  // --- Moves, imports and forgets: state changes no provider call makes ---

  // Written before anything else, each in one step: a moved object takes its new address
  // (so that its operations, and a crash after them, find it there), an imported object is
  // recorded as read, and a forgotten one leaves state; the remote objects stay as they are.
  void RecordStateOnlyChanges() {
    for (const ResourceInstanceChange& c : req_.plan->changes) {
      std::string address = c.addr.ToString();
      if (c.previous_addr && FindInMemory(*c.previous_addr)) {
        // Across types the object takes the attributes the target type's provider converted
        // them to (planned in `before`), in the same step as its new address.
        std::optional<state::ResourceInstanceState> converted;
        if (c.previous_addr->resource.type != c.addr.resource.type && c.before.IsMapping()) {
          converted = *FindInMemory(*c.previous_addr);
          converted->addr = c.addr;
          converted->provider = c.provider;
          converted->attributes = c.before;
          converted->schema_version = c.schema_version;
        }
        if (!CheckStored(req_.store->RenameResource(*cs_, *c.previous_addr, c.addr, converted ? &*converted : nullptr),
                         address, diags_)) {
          continue;
        }
        if (converted) {
          *FindInMemory(*c.previous_addr) = *converted;
        } else {
          FindInMemory(*c.previous_addr)->addr = c.addr;
        }
      }
      if (c.action == Action::Forget && FindInMemory(c.addr)) {
        if (CheckStored(req_.store->DeleteResource(*cs_, c.addr), address, diags_)) ForgetInMemory(c.addr);
      }
      if (c.importing_id && !FindInMemory(c.addr)) {
        state::ResourceInstanceState imported = StateAfter(c, c.before);
        if (CheckStored(req_.store->PutResource(*cs_, imported), address, diags_)) {
          state_.resources.push_back(imported);
          std::lock_guard lock(mu_);
          ++outcome_.imported;
        }
      }
    }
  }

  // --- Data sources in state ---

  // Terraform keeps what each data source read in state (mode "data") for show and output;
  // the next plan reads it again. A row is written only when it changed, so that an apply
  // that changes nothing leaves the serial alone.
  void RecordData(const InstanceHookInput& in, const Value& read, const state::ResourceInstanceState* current,
                  Diagnostics& diags) {
    state::ResourceInstanceState s;
    s.addr = in.addr;
    s.provider = providers_.RecordedName(in, *req_.stage->graph);
    s.attributes = read;
    s.dependencies = data_dependencies_[in.node];
    s.schema_version = in.schema->version;
    std::string address = in.addr.ToString();
    {
      std::lock_guard lock(mu_);
      read_data_.insert(address);
    }
    bool same = current && current->provider == s.provider && current->dependencies == s.dependencies &&
                current->schema_version == s.schema_version && current->attributes.Equals(read) &&
                current->attributes.ContainsSensitive() == read.ContainsSensitive();
    if (same) return;
    runner_->Store([&] { return CheckStored(req_.store->PutResource(*cs_, s), address, diags); });
  }

  // The data instances in state are those this apply read: a normal apply drops the rest
  // (gone from config, fewer instances, or not reached), a destroy drops them all. Never
  // through a provider: a data source has nothing to destroy.
  void DropUnreadData() {
    if (req_.plan->mode == PlanMode::RefreshOnly) return;
    for (const state::ResourceInstanceState& r : state_.resources) {
      if (r.addr.resource.mode != ResourceMode::Data || read_data_.count(r.addr.ToString())) continue;
      CheckStored(req_.store->DeleteResource(*cs_, r.addr), r.addr.ToString(), diags_);
    }
  }

  // --- What refresh found is written to state ---

  // A normal or destroy apply keeps what the plan's refresh saw, as Terraform persists its
  // refreshed state: an object found gone leaves state (an interrupted delete that did
  // finish, a deletion outside Strata), and an object this apply does not change takes its
  // refreshed value, so that drift in computed attributes and the outputs built on them
  // converges after one apply. Changed objects are recorded by their own operations.
  void RecordRefresh() {
    for (const ResourceInstanceChange& d : req_.plan->drift) {
      std::string address = d.addr.ToString();
      auto it = changes_.find(address);
      bool unchanged = it == changes_.end() || it->second->action == Action::NoOp;
      if (d.action == Action::Delete) {
        if (CheckStored(req_.store->DeleteResource(*cs_, d.addr), address, diags_)) ForgetInMemory(d.addr);
      } else if (state::ResourceInstanceState* current = FindInMemory(d.addr)) {
        // What the refresh saw is the prior of this apply, as it was of the plan: an object
        // the plan changes is re-planned and updated from it (a computed attribute another
        // resource set since, such as a queue's policy, is not a change of plan). Only an
        // object the plan leaves alone is recorded now; a changed one is recorded by its
        // operation.
        current->attributes = d.after;
        if (unchanged) CheckStored(req_.store->PutResource(*cs_, *current), address, diags_);
      }
    }
  }

  state::ResourceInstanceState* FindInMemory(const ResourceInstanceAddr& addr) {
    for (auto& r : state_.resources) {
      if (r.addr == addr) return &r;
    }
    return nullptr;
  }

  void ForgetInMemory(const ResourceInstanceAddr& addr) {
    std::erase_if(state_.resources, [&](const state::ResourceInstanceState& r) { return r.addr == addr; });
  }

  // A destroy is complete only when state holds no object of the stage: what is left
  // (a failed or skipped delete, an interruption) is listed, and the apply fails.
  // With -target, only what the plan meant to destroy counts.
  void ReportLeftovers() {
    auto after = req_.store->LoadStage(req_.plan->stage);
    if (!after.ok()) return;
    std::vector<const state::ResourceInstanceState*> objects;
    for (const state::ResourceInstanceState& r : after->resources) objects.push_back(&r);
    for (const state::ResourceInstanceState& r : after->deposed) objects.push_back(&r);
    for (const state::ResourceInstanceState* object : objects) {
      const state::ResourceInstanceState& r = *object;
      if (r.addr.resource.mode != ResourceMode::Managed) continue;
      std::string address = r.addr.ToString();
      if (!r.deposed.empty()) address += " (deposed object " + r.deposed + ")";
      auto it = changes_.find(address);
      if (!req_.plan->targets.empty() && (it == changes_.end() || it->second->action != Action::Delete)) continue;
      if (r.IsInterruptedCreate()) {
        // The plan looked where it could (PlanInterruptedCreate): this type finds what its
        // create made only by sending the create again, or the config was not known.
        address += " (an interrupted create that a destroy cannot look for without creating: apply the stage to "
                   "find and adopt what it made, then destroy)";
      }
      outcome_.remaining.push_back(address);
    }
  }

  // Refresh-only: what refresh found is written to state, and nothing else.
  void ApplyDrift() {
    for (const ResourceInstanceChange& d : req_.plan->drift) {
      std::string address = d.addr.ToString();
      if (d.action == Action::Delete) {
        CheckStored(req_.store->DeleteResource(*cs_, d.addr), address, diags_);
        continue;
      }
      const state::ResourceInstanceState* current = state_.FindResource(d.addr);
      state::ResourceInstanceState s = current ? *current : StateAfter(d, d.after);
      s.attributes = d.after;
      CheckStored(req_.store->PutResource(*cs_, s), address, diags_);
    }
  }

  void Commit() {
    bool destroy_complete = outcome_.failed.empty() && !outcome_.interrupted;
    std::optional<std::vector<state::OutputState>> outputs =
        OutputsToCommit(*req_.plan, destroy_complete, *req_.stage->graph, evaluation_.get(), state_.outputs);
    RecordUpstreamReads(destroy_complete);
    auto committed = req_.store->CommitChangeSet(*cs_, outputs);
    if (!committed.ok()) {
      diags_.Add(committed.status().ToDiagnostic());
      outcome_.commit_failed = true;
      return;
    }
    outcome_.serial = committed->serial;
    if (outputs) {
      for (const auto& o : *outputs) outcome_.outputs[o.name] = o.value;
    }
  }

  // What this stage read of earlier stages' outputs, for its next plan to compare
  // (upstream_reads.h): recorded after a full apply that went through, and cleared after a
  // complete destroy. A targeted, refresh-only, failed or interrupted apply keeps the last
  // record, since the objects that read the values may not have taken them.
  void RecordUpstreamReads(bool destroy_complete) {
    const Plan& plan = *req_.plan;
    if (!upstream_ || !plan.targets.empty() || diags_.HasErrors()) return;
    std::vector<state::UpstreamRead> reads;
    if (plan.mode == PlanMode::Normal) {
      if (!outcome_.failed.empty() || !outcome_.skipped.empty() || outcome_.interrupted) return;
      reads = upstream_->Reads();
    } else if (plan.mode != PlanMode::Destroy || !destroy_complete) {
      return;
    }
    CheckStored(req_.store->RecordUpstreamReads(*cs_, reads), plan.stage, diags_);
  }

  const ApplyRequest& req_;
  Diagnostics& diags_;
  std::optional<RecordingStageOutputs> upstream_;  // req_.options.stage_outputs, recorded
  ProviderSet providers_;
  std::map<std::string, const ResourceInstanceChange*> changes_;
  const state::ChangeSet* cs_ = nullptr;
  state::StageState state_;
  OrderingClasses classes_;
  std::unique_ptr<StageGraph> ordered_graph_;
  std::unique_ptr<StageEvaluation> evaluation_;
  std::mutex mu_;
  std::optional<OperationRunner> runner_;
  std::vector<std::vector<std::string>> data_dependencies_;  // per node, for the data rows
  std::set<std::string> read_data_;                           // data instances read (mu_)
  std::set<std::string> replaced_deleted_;  // delete-then-create: old object deleted (mu_)
  std::deque<ResourceInstanceChange> deposed_now_;  // create_before_destroy: to delete after the walk (mu_)
  ApplyOutcome outcome_;
};

}  // namespace

ApplyOutcome ApplyPlan(const ApplyRequest& request, Diagnostics& diags) { return Applier(request, diags).Run(); }

}  // namespace strata
