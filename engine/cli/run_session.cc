#include "engine/cli/run_session.h"

#include <filesystem>
#include <mutex>
#include <ostream>

#include <fmt/format.h>

#include "engine/cli/interrupts.h"
#include "engine/core/saved_plan.h"
#include "engine/cli/wiring.h"

namespace strata::cli {

namespace {

const ProviderRegistry& CompiledProviders() {
  static const ProviderRegistry registry = DefaultProviders();
  return registry;
}

}  // namespace

void PlanFlags::AddTo(CLI::App* cmd, bool mode_flags) {
  cmd->add_option("stage", stage, "The stage (default: the only stage, or the one holding the working directory)");
  variables.AddTo(cmd);
  cmd->add_option("--target", targets, "Limit the plan to this resource, instance or module and what it depends on (repeatable)")
      ->option_text("ADDRESS")
      ->allow_extra_args(false);  // one value per flag (repeatable): a stage name after it stays the stage
  cmd->add_option("--replace", replace, "Plan to replace this instance even if nothing changed (repeatable)")
      ->option_text("ADDRESS")
      ->allow_extra_args(false);
  cmd->add_option("--refresh", refresh, "Read every object from its provider first (default true; -refresh=false skips it)")
      ->option_text("BOOL")
      ->default_val(true);
  if (mode_flags) {
    cmd->add_flag("--refresh-only", refresh_only, "Plan only to update state from what refresh finds");
    cmd->add_flag("--destroy", destroy, "Plan to destroy every object of the stage");
  }
  cmd->add_option("--parallelism", parallelism, "At most N provider operations at once")->default_val(10);
  lock.AddTo(cmd);
}

PlanMode PlanFlags::Mode() const {
  if (destroy) return PlanMode::Destroy;
  if (refresh_only) return PlanMode::RefreshOnly;
  return PlanMode::Normal;
}

std::string ResolvePath(const CommandContext& ctx, const std::string& path) {
  std::filesystem::path p(path);
  return p.is_absolute() ? path : (std::filesystem::path(ctx.WorkingDir()) / p).lexically_normal().string();
}

RunSession::RunSession(CommandContext& ctx) : ctx_(ctx), project_(ctx), state_(ctx) {}

RunSession::~RunSession() = default;

bool RunSession::Report() {
  bool errors = project_.Report();
  project_.diags() = Diagnostics();
  return errors;
}

bool RunSession::OpenProject() {
  if (!project_.Open()) {
    Report();
    ctx_.exit_code = 1;
    return false;
  }
  const ProjectConfig& project = project_.project();
  if (ctx_.global.sandbox || project.sandbox.enabled) {
    std::string error;
    sandbox_ = SandboxScope::Start(SandboxSettingsFor(project), error);
    if (!sandbox_) {
      *ctx_.err << "\nError: the sandbox could not start: " << error << "\n";
      ctx_.exit_code = 1;
      return false;
    }
  }
  return state_.Open();
}

bool RunSession::OpenStage(const std::string& stage, const std::string& operation, const LockFlags& lock) {
  auto resolved = state_.ResolveStage(stage);
  if (!resolved) return false;
  stage_ = *resolved;
  loaded_ = project_.engine().LoadStage(project_.project(), stage_, project_.diags());
  if (!loaded_ || !loaded_->graph || project_.diags().HasErrors()) {
    Report();
    ctx_.exit_code = 1;
    return false;
  }
  auto held = state_.Lock(stage_, operation, lock);
  if (!held) return false;
  lock_.emplace(std::move(*held));
  auto prior = state_.store().LoadStage(stage_);
  if (!prior.ok()) {
    state_.Fail(prior.status());
    return false;
  }
  prior_ = std::move(*prior);
  return true;
}

std::optional<Plan> RunSession::MakePlan(const PlanFlags& flags) {
  PlanRequest request;
  request.engine = &project_.engine();
  request.project = &project_.project();
  request.stage = loaded_.get();
  request.prior = &prior_;
  request.providers = &CompiledProviders();
  request.options.parallelism = flags.parallelism;
  request.options.variables = flags.variables.ToInputs(ctx_.WorkingDir(), project_.diags());
  request.options.stage_outputs = project_.StageOutputs(false);
  request.mode = flags.Mode();
  request.refresh = flags.refresh;
  request.targets = flags.targets;
  request.replace = flags.replace;
  request.stop = &Interrupts().stop;
  std::mutex print;
  if (!ctx_.global.json) {
    // Terraform's "addr: Refreshing state... [id=...]" lines, from the walker's threads.
    request.progress = [this, &print](const std::string& address, const std::string& message) {
      std::lock_guard lock(print);
      *ctx_.out << address << ": " << message << "\n";
    };
  }
  PlanOutcome outcome = PlanStage(request, project_.diags());
  if (!ctx_.global.json && !prior_.resources.empty()) *ctx_.out << "\n";
  if (Report() || outcome.plan.errored) {
    ctx_.exit_code = 1;
    return std::nullopt;
  }
  return std::move(outcome.plan);
}

bool RunSession::CheckSavedPlan(const Plan& plan, const std::string& file) {
  std::optional<std::string> stale = SavedPlanStaleness(plan, stage_, prior_, *loaded_);
  if (!stale) return true;
  state_.Error("Saved plan is stale",
               fmt::format("The plan in {} cannot be applied: {}. Run `strata plan {} -out {}` again and apply the new "
                           "plan.",
                           file, *stale, stage_, file));
  return false;
}

ApplyOutcome RunSession::Apply(const Plan& plan, int parallelism, const std::function<void(const ApplyEvent&)>& on_event) {
  ApplyRequest request;
  request.engine = &project_.engine();
  request.project = &project_.project();
  request.stage = loaded_.get();
  request.plan = &plan;
  request.providers = &CompiledProviders();
  request.store = &state_.store();
  request.lock_id = lock_->id();
  request.options.parallelism = parallelism;
  request.options.stage_outputs = project_.StageOutputs(false);
  request.stop = &Interrupts().stop;
  request.on_event = on_event;
  if (const char* interval = std::getenv("STRATA_PROGRESS_INTERVAL")) {
    if (auto d = ParseDuration(interval)) request.progress_interval = *d;
  }
  ApplyOutcome outcome;
  {
    GracefulStopScope graceful;
    outcome = ApplyPlan(request, project_.diags());
  }
  Report();
  if (!outcome.failed.empty() || outcome.interrupted || !outcome.remaining.empty()) ctx_.exit_code = 1;
  if (outcome.interrupted && Interrupts().signal != 0) ctx_.exit_code = 128 + Interrupts().signal;
  return outcome;
}

}  // namespace strata::cli
