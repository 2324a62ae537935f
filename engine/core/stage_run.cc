#include "engine/core/stage_run.h"

#include <fmt/format.h>

#include "engine/core/saved_plan.h"

namespace strata {

std::unique_ptr<StageRun> StageRun::Open(const StageRunContext& context, const std::string& stage,
                                         const std::string& operation, std::chrono::milliseconds lock_timeout,
                                         Diagnostics& diags) {
  std::unique_ptr<StageRun> run(new StageRun(context, stage));
  run->loaded_ = context.engine->LoadStage(*context.project, stage, diags);
  if (!run->loaded_ || !run->loaded_->graph || diags.HasErrors()) return nullptr;
  auto lock = state::ScopedStageLock::Acquire(*context.store, {stage, operation, lock_timeout});
  if (!lock.ok()) {
    diags.Add(lock.status().ToDiagnostic());
    return nullptr;
  }
  diags.Append(state::TakeoverWarning(lock->info()));
  run->lock_.emplace(std::move(*lock));
  auto prior = context.store->LoadStage(stage);
  if (!prior.ok()) {
    diags.Add(prior.status().ToDiagnostic());
    return nullptr;
  }
  run->prior_ = std::move(*prior);
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
  auto request = RequestFor<PlanRequest>(options.parallelism);
  request.prior = &prior_;
  request.options.variables = options.variables;
  request.mode = options.mode;
  request.refresh = options.refresh;
  request.targets = options.targets;
  request.replace = options.replace;
  request.progress = options.progress;
  PlanOutcome outcome = PlanStage(request, diags);
  outcome.plan.environment = context_.store->Environment();
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
  request.store = context_.store;
  request.lock_id = lock_->id();
  request.on_event = options.on_event;
  request.progress_interval = options.progress_interval;
  return ApplyPlan(request, diags);
}

}  // namespace strata
