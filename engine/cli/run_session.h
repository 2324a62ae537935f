#pragma once
// What plan, apply, destroy and refresh share: their flags, and one session that wires the
// project's implementations (state store, compiled-in providers, sandbox, interrupts) into
// the engine's StageRun and reports what comes back. Locking, loading state, planning,
// applying and the saved-plan rules are the engine's (engine/core/stage_run.h); the verbs
// only choose and render.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/sandbox_scope.h"
#include "engine/cli/stage_flags.h"
#include "engine/cli/state_session.h"
#include "engine/core/stage_run.h"

namespace strata::cli {

//! Flags of every planning verb.
struct PlanFlags {
  std::string stage;
  VariableFlags variables;
  std::vector<std::string> targets;
  std::vector<std::string> replace;
  bool refresh = true;
  bool refresh_only = false;
  bool destroy = false;
  bool force = false;  // -force: destroy although applied stages read this one
  //! plan -generate-config-out=FILE: where the configuration of imports without one goes.
  std::string generate_config_out;
  int parallelism = 10;
  LockFlags lock;

  //! Adds the flags; `planning` false leaves out the mode flags (-destroy, -refresh-only)
  //! for verbs that fix the mode.
  void AddTo(CLI::App* cmd, bool mode_flags);
  PlanMode Mode() const;
};

class RunSession {
 public:
  explicit RunSession(CommandContext& ctx);
  ~RunSession();

  //! Opens the project and its state store, and starts the sandbox when -sandbox or
  //! strata.yaml asks for one. Reports and returns false on any error.
  bool OpenProject();
  //! Resolves `stage` (empty: the only stage, or the one holding the working directory),
  //! loads its config, takes its lock for `operation` and loads its state. Reports and
  //! returns false on any error. `destroying`: the stage is planned or applied for a
  //! destroy, so the outputs of stages never applied (or destroyed already) read as unknown
  //! instead of failing: a stage left half-built can still go.
  bool OpenStage(const std::string& stage, const std::string& operation, const LockFlags& lock,
                 bool destroying = false);

  //! Plans with `flags`; problems are reported (exit code 1) and give nullopt. `for_saving`:
  //! the plan goes to a file (StagePlanOptions::for_saving).
  std::optional<Plan> MakePlan(const PlanFlags& flags, bool for_saving = false);

  //! Checks that a saved plan still fits this stage: same stage, same state (lineage,
  //! serial, and nothing recorded since), same configuration. Reports and returns false.
  bool CheckSavedPlan(const Plan& plan, const std::string& file);

  //! Imports the object `id` at `address` (StageRun::Import); reports problems and gives nullopt.
  std::optional<ResourceInstanceChange> Import(const PlanFlags& flags, const std::string& address, const std::string& id);

  //! Applies `plan`; events go to `on_event`. Reports diagnostics.
  ApplyOutcome Apply(const Plan& plan, int parallelism, const std::function<void(const ApplyEvent&)>& on_event);

  const std::string& stage() const { return run_->stage(); }
  //! The module file the last plan generated for imports without configuration ("" if none).
  const std::string& generated_config() const { return generated_config_; }
  //! The stage as the prompts name it: "eks", or "eks (environment prod)" outside `default`.
  std::string StageLabel();
  //! The plan views' first line, "Stage eks, environment prod", and a blank line, outside
  //! `default`; empty in `default` (whose output stays Terraform's).
  std::string PlanHeader();
  ProjectSession& project() { return project_; }
  StateSession& state() { return state_; }
  //! Prints (and clears) what the project session gathered; true when there were errors.
  bool Report();

 private:
  CommandContext& ctx_;
  std::unique_ptr<SandboxScope> sandbox_;
  ProjectSession project_;
  StateSession state_;
  std::unique_ptr<StageRun> run_;
  std::string generated_config_;
};

//! The providers compiled into this binary (wiring.h's DefaultProviders), made once.
const ProviderRegistry& CompiledProviders();

//! A stage as the prompts name it: "eks", or "eks (environment prod)" outside `default`.
std::string StageLabelFor(const std::string& stage, const std::string& environment);

//! A plan file's path as given relative to the working directory.
std::string ResolvePath(const CommandContext& ctx, const std::string& path);

//! -json-events on a planning verb: the flag, and the check that it is not combined with
//! -json. Returns false (reported) when it is.
void AddJsonEventsFlag(CLI::App* cmd, CommandContext& ctx);
bool CheckJsonEventsFlags(CommandContext& ctx);

//! Whether `arg` names an existing file (relative to the working directory): a saved plan
//! where a verb also takes a stage.
bool IsPlanFile(const CommandContext& ctx, const std::string& arg);

//! The saved plan in `file` (relative to the working directory), opened with the project's
//! key ring.
state::StateResult<Plan> ReadSavedPlan(const CommandContext& ctx, const ProjectConfig& project, const std::string& file);

}  // namespace strata::cli
