#include "engine/core/stage_run.h"

#include <optional>
#include <thread>

#include <fmt/format.h>

#include "engine/core/declaration_positions.h"
#include "engine/core/saved_plan.h"
#include "engine/core/stage_consumers.h"
#include "engine/core/upstream_reads.h"
#include "state/recovering_store.h"
#include "state/recovery_file.h"

namespace strata {

namespace {

// An apply that lost its database left results in a recovery file: planning over the state
// without them would create again what they record.
bool CheckNoRecoveryPending(const StageRunContext& context, const std::string& stage, Diagnostics& diags) {
  std::vector<std::string> files = state::PendingRecoveryFiles(state::RecoveryDir(context.project->root_dir),
                                                               context.store->Environment(), stage);
  if (files.empty()) return true;
  std::string list;
  for (const std::string& f : files) list += (list.empty() ? "" : ", ") + f;
  diags.Error("Recovery pending",
              fmt::format("An earlier apply of stage \"{}\" lost its state database and saved what it could not "
                          "write in {}. Run `strata state recover {}` first (once the database is back): planning "
                          "without those results would create again what they record.",
                          stage, list, stage));
  return false;
}

}  // namespace

std::unique_ptr<StageRun> StageRun::Open(const StageRunContext& context, const std::string& stage,
                                         const std::string& operation, std::chrono::milliseconds lock_timeout,
                                         Diagnostics& diags) {
  std::unique_ptr<StageRun> run(new StageRun(context, stage));
  if (!CheckNoRecoveryPending(context, stage, diags)) return nullptr;
  // The configuration loads on a second thread while this one takes the lock, when it is
  // free at the first attempt, and reads the prior state: they share nothing (the engine
  // never touches the store), and reading a large stage's state costs as much as a tenth
  // of its no-op plan. Configuration errors still come first, and a held lock is waited
  // for only once the configuration is known to be good.
  Diagnostics load_diags;
  std::thread loader([&] { run->loaded_ = context.engine->LoadStage(*context.project, stage, load_diags); });
  std::optional<state::StateResult<state::ScopedStageLock>> lock;
  std::optional<state::StateResult<state::StageState>> prior;
  if (auto first = state::ScopedStageLock::Acquire(*context.store, {stage, operation, std::chrono::milliseconds(0)});
      first.ok()) {
    lock.emplace(std::move(first));
    prior.emplace(context.store->LoadStage(stage));
  }
  loader.join();
  diags.Append(load_diags);
  if (!run->loaded_ || !run->loaded_->graph || diags.HasErrors()) return nullptr;
  if (!lock) lock.emplace(state::ScopedStageLock::Acquire(*context.store, {stage, operation, lock_timeout}));
  if (!lock->ok()) {
    diags.Add(lock->status().ToDiagnostic());
    return nullptr;
  }
  diags.Append(state::TakeoverWarning((*lock)->info()));
  run->lock_.emplace(std::move(**lock));
  if (!prior) prior.emplace(context.store->LoadStage(stage));
  if (!prior->ok()) {
    diags.Add(prior->status().ToDiagnostic());
    return nullptr;
  }
  run->prior_ = std::move(**prior);
  return run;
}

template <typename Request>
Request StageRun::RequestFor(int parallelism) const {
  Request request;
  request.engine = context_.engine;
  request.project = context_.project;
  request.stage = loaded_.get();
  request.providers = context_.providers;
  request.options.parallelism = parallelism;
  request.options.stage_outputs = context_.stage_outputs;
  request.options.environment = context_.store->Environment();
  request.stop = context_.stop;
  return request;
}

PlanOutcome StageRun::MakePlan(const StagePlanOptions& options, Diagnostics& diags) {
  if (options.mode == PlanMode::Destroy && options.targets.empty() && !options.force) {
    std::vector<std::string> readers = AppliedReadersOf(*context_.engine, *context_.project, *context_.store, stage_);
    if (!readers.empty()) {
      std::string names;
      for (const std::string& r : readers) names += (names.empty() ? "" : ", ") + r;
      diags.Error("Stage is read by applied stages",
                  fmt::format("Stage \"{}\" cannot be destroyed while {} {} {} outputs and still {} objects: destroy "
                              "{} first (later stages before earlier ones), or pass -force to destroy it anyway.",
                              stage_, readers.size() == 1 ? "stage" : "stages", names,
                              readers.size() == 1 ? "reads its" : "read its", readers.size() == 1 ? "holds" : "hold",
                              readers.size() == 1 ? "it" : "them"));
      PlanOutcome refused;
      refused.plan.stage = stage_;
      refused.plan.mode = options.mode;
      refused.plan.errored = true;
      return refused;
    }
  }
  auto request = RequestFor<PlanRequest>(options.parallelism);
  request.prior = &prior_;
  request.options.variables = options.variables;
  request.mode = options.mode;
  request.refresh = options.refresh;
  request.targets = options.targets;
  request.replace = options.replace;
  request.imports = options.imports;
  request.generate_config = options.generate_config;
  request.progress = options.progress;
  request.state_digest = options.for_saving;
  Diagnostics planning;
  PlanOutcome outcome = PlanStage(request, planning);
  diags.Append(WithDeclarationPositions(planning, *loaded_->graph));
  outcome.plan.environment = context_.store->Environment();
  if (options.mode != PlanMode::Destroy && context_.stage_outputs) {
    auto recorded = context_.store->LoadUpstreamReads(stage_);
    if (recorded.ok()) {
      outcome.plan.upstream_changes = ChangedUpstreamOutputs(*recorded, *context_.stage_outputs);
    } else {
      diags.Add(recorded.status().ToDiagnostic());
      outcome.plan.errored = true;
    }
  }
  return outcome;
}

bool StageRun::CheckSavedPlan(const Plan& plan, const std::string& file, Diagnostics& diags) const {
  if (plan.environment != context_.store->Environment()) {
    diags.Error("Saved plan is for another environment",
                fmt::format("The plan in {} was made in environment \"{}\", and this command works in \"{}\". Apply it "
                            "with `strata apply -env {} {}`.",
                            file, plan.environment, context_.store->Environment(), plan.environment, file));
    return false;
  }
  std::optional<std::string> stale = SavedPlanStaleness(plan, stage_, prior_, *loaded_);
  if (!stale) return true;
  diags.Error("Saved plan is stale",
              fmt::format("The plan in {} cannot be applied: {}. Run `strata plan {} -out {}` again and apply the new "
                          "plan.",
                          file, *stale, stage_, file));
  return false;
}

ApplyOutcome StageRun::Apply(const Plan& plan, const StageApplyOptions& options, Diagnostics& diags) {
  auto request = RequestFor<ApplyRequest>(options.parallelism);
  request.plan = &plan;
  state::RecoveryOptions recovery;
  recovery.dir = state::RecoveryDir(context_.project->root_dir);
  if (context_.keys) recovery.keys = *context_.keys;
  state::RecoveringStore store(*context_.store, std::move(recovery));
  request.store = &store;
  request.lock_id = lock_->id();
  request.on_event = options.on_event;
  request.progress_interval = options.progress_interval;
  Diagnostics applying;
  ApplyOutcome outcome = ApplyPlan(request, applying);
  diags.Append(WithDeclarationPositions(applying, *loaded_->graph));
  return outcome;
}

std::optional<ResourceInstanceChange> StageRun::Import(const std::string& address, const std::string& id,
                                                       StagePlanOptions plan_options,
                                                       const StageApplyOptions& apply_options, Diagnostics& diags) {
  AddrParseResult addr = ParseResourceInstanceAddr(address);
  if (!addr.addr || addr.addr->resource.mode != ResourceMode::Managed) {
    diags.Error("Invalid address",
                fmt::format("\"{}\" is not a managed resource instance address{}. Write one such as aws_vpc.main or "
                            "'aws_subnet.private[\"a\"]'.",
                            address, addr.addr ? "" : ": " + addr.error));
    return std::nullopt;
  }
  if (const state::ResourceInstanceState* held = prior_.FindResource(*addr.addr)) {
    diags.Error("Resource already managed by Strata",
                fmt::format("Stage \"{}\" already holds an object at {}{}. To import to this address, remove that "
                            "object from state first: strata state rm {} {}.",
                            stage_, address, held->attributes.IsMapping() ? "" : " (an interrupted create)", stage_,
                            address));
    return std::nullopt;
  }
  plan_options.mode = PlanMode::Normal;
  plan_options.targets = {addr.addr->ToString()};
  plan_options.imports = {{addr.addr->ToString(), id}};
  PlanOutcome planned = MakePlan(plan_options, diags);
  if (planned.plan.errored || diags.HasErrors()) return std::nullopt;
  // Only the import goes through: the object as read, recorded as it is.
  std::optional<ResourceInstanceChange> imported;
  for (const ResourceInstanceChange& c : planned.plan.changes) {
    if (c.addr == *addr.addr && c.importing_id) imported = c;
  }
  if (!imported) {
    diags.Error("Nothing imported", fmt::format("The plan for {} did not import it.", address));
    return std::nullopt;
  }
  imported->action = Action::NoOp;
  imported->after = imported->before;
  imported->requires_replace.clear();
  imported->reason = ActionReason::None;
  Plan only = planned.plan;
  only.changes = {*imported};
  only.drift.clear();
  Apply(only, apply_options, diags);
  if (diags.HasErrors()) return std::nullopt;
  return imported;
}

}  // namespace strata
