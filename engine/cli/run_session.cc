#include "engine/cli/run_session.h"

#include <filesystem>
#include <mutex>
#include <ostream>

#include <fmt/format.h>

#include "engine/base/duration.h"
#include "engine/base/keep_until_exit.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/wiring.h"
#include "engine/plan/file/plan_file.h"

namespace strata::cli {

const ProviderRegistry& CompiledProviders() {
  static const ProviderRegistry registry = DefaultProviders();
  return registry;
}

std::string StageLabelFor(const std::string& stage, const std::string& environment) {
  if (environment == state::kDefaultEnvironment) return stage;
  return stage + " (environment " + environment + ")";
}

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
    cmd->add_flag("--force", force, "With -destroy: go ahead although applied stages read this stage's outputs");
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

void AddJsonEventsFlag(CLI::App* cmd, CommandContext& ctx) {
  cmd->add_flag("--json-events", ctx.global.json_events,
                "Print Terraform's machine-readable UI: one JSON message per line (as `terraform "
                "plan|apply -json`)");
}

bool CheckJsonEventsFlags(CommandContext& ctx) {
  if (!ctx.global.json || !ctx.global.json_events) return true;
  ctx.global.json = false;
  Diagnostics diags;
  diags.Error("Conflicting flags", "-json prints the plan document and -json-events the stream of UI messages: choose one.");
  ctx.Report(diags);
  return false;
}

bool IsPlanFile(const CommandContext& ctx, const std::string& arg) {
  std::error_code ec;
  return !arg.empty() && std::filesystem::is_regular_file(ResolvePath(ctx, arg), ec);
}

state::StateResult<Plan> ReadSavedPlan(const CommandContext& ctx, const ProjectConfig& project, const std::string& file) {
  auto ring = LoadProjectKeyRing(project);
  if (!ring.ok()) return ring.status();
  return ReadPlanFile(ResolvePath(ctx, file), *ring);
}

RunSession::RunSession(CommandContext& ctx) : ctx_(ctx), project_(ctx), state_(ctx) {}

RunSession::~RunSession() {
  // The run's loaded state and configuration are only memory once its lock is released.
  if (run_ && base::KeepingUntilExit()) {
    run_->ReleaseLock();
    base::KeepUntilExit(run_);
  }
}

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

std::string RunSession::StageLabel() { return StageLabelFor(stage(), state_.environment()); }

std::string RunSession::PlanHeader() {
  const std::string& environment = state_.environment();
  if (environment == state::kDefaultEnvironment) return "";
  return "Stage " + stage() + ", environment " + environment + "\n\n";
}

bool RunSession::OpenStage(const std::string& stage, const std::string& operation, const LockFlags& lock,
                           bool destroying) {
  auto resolved = state_.ResolveStage(stage);
  if (!resolved) return false;
  auto timeout = state_.ParseLockTimeout(lock);
  if (!timeout) return false;
  StageRunContext context;
  context.engine = &project_.engine();
  context.project = &project_.project();
  context.store = &state_.store();
  context.providers = &CompiledProviders();
  context.stage_outputs = project_.StageOutputs(destroying);
  context.stop = &Interrupts().stop;
  context.keys = project_.Keys();
  // main() installed the interrupt handler: SIGINT/SIGTERM release the lock (or, during an
  // apply, stop it gracefully).
  run_ = StageRun::Open(context, *resolved, operation, *timeout, project_.diags());
  if (!run_) {
    Report();
    ctx_.exit_code = 1;
    return false;
  }
  return true;
}

std::optional<Plan> RunSession::MakePlan(const PlanFlags& flags, bool for_saving) {
  StagePlanOptions options;
  options.for_saving = for_saving;
  options.mode = flags.Mode();
  options.refresh = flags.refresh;
  options.targets = flags.targets;
  options.replace = flags.replace;
  options.variables = flags.variables.ToInputs(ctx_.WorkingDir(), project_.diags());
  if (!ctx_.MachineReadable()) *ctx_.out << PlanHeader();
  options.parallelism = flags.parallelism;
  options.generate_config = !flags.generate_config_out.empty();
  options.force = flags.force;
  std::mutex print;
  if (!ctx_.MachineReadable()) {
    // Terraform's "addr: Refreshing state... [id=...]" lines, from the walker's threads.
    options.progress = [this, &print](const std::string& address, const std::string& message) {
      std::lock_guard lock(print);
      *ctx_.out << address << ": " << message << "\n";
    };
  }
  PlanOutcome outcome = run_->MakePlan(options, project_.diags());
  base::KeepUntilExit(outcome.evaluation);
  generated_config_ = std::move(outcome.generated_config);
  if (!ctx_.MachineReadable() && !run_->prior().resources.empty()) *ctx_.out << "\n";
  if (Report() || outcome.plan.errored) {
    ctx_.exit_code = 1;
    return std::nullopt;
  }
  return std::move(outcome.plan);
}

std::optional<ResourceInstanceChange> RunSession::Import(const PlanFlags& flags, const std::string& address,
                                                        const std::string& id) {
  StagePlanOptions options;
  options.variables = flags.variables.ToInputs(ctx_.WorkingDir(), project_.diags());
  options.parallelism = flags.parallelism;
  if (!ctx_.global.json) {
    options.progress = [this](const std::string& at, const std::string& message) { *ctx_.out << at << ": " << message << "\n"; };
  }
  StageApplyOptions apply;
  apply.parallelism = flags.parallelism;
  std::optional<ResourceInstanceChange> imported;
  {
    GracefulStopScope graceful;
    imported = run_->Import(address, id, options, apply, project_.diags());
  }
  if (Report() || !imported) {
    ctx_.exit_code = 1;
    return std::nullopt;
  }
  return imported;
}

bool RunSession::CheckSavedPlan(const Plan& plan, const std::string& file) {
  if (run_->CheckSavedPlan(plan, file, project_.diags())) return true;
  Report();
  ctx_.exit_code = 1;
  return false;
}

ApplyOutcome RunSession::Apply(const Plan& plan, int parallelism, const std::function<void(const ApplyEvent&)>& on_event) {
  StageApplyOptions options;
  options.parallelism = parallelism;
  options.on_event = on_event;
  if (const char* interval = std::getenv("STRATA_PROGRESS_INTERVAL")) {
    if (auto d = base::ParseDuration(interval)) {
      options.progress_interval = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    }
  }
  ApplyOutcome outcome;
  {
    GracefulStopScope graceful;
    outcome = run_->Apply(plan, options, project_.diags());
  }
  Report();
  if (!outcome.failed.empty() || outcome.interrupted || !outcome.remaining.empty()) ctx_.exit_code = 1;
  if (outcome.interrupted && Interrupts().signal != 0) ctx_.exit_code = 128 + Interrupts().signal;
  return outcome;
}

}  // namespace strata::cli
