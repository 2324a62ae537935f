#pragma once
// What the state verbs share (state list/show/rm/mv/pull/push/history/rollback/rekey,
// output, force-unlock): the project and its state store, stage resolution, the lock for
// writes (-lock-timeout), and reporting store failures as diagnostics.
//
// These verbs are store operations by nature, so they call the StateStore directly; the
// engine stays the only path for plan/apply.

#include <chrono>
#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/command.h"
#include "engine/config/project.h"
#include "state/lock_guard.h"
#include "state/store.h"

namespace strata::cli {

//! -lock-timeout=DURATION ("0s", "500ms", "10s", "2m", "1m30s", "1h").
struct LockFlags {
  std::string timeout = "0s";
  void AddTo(CLI::App* cmd);
};

class StateSession {
 public:
  explicit StateSession(CommandContext& ctx) : ctx_(ctx) {}

  //! Loads strata.yaml from the working directory and opens the state store. Verbs that
  //! only read pass StoreAccess::ReadOnly (a read-only state file still serves them).
  //! Reports and returns false on failure.
  bool Open(state::StoreAccess access = state::StoreAccess::ReadWrite);
  //! Open, for `environment` rather than the selected one (the `env` verbs use `default`,
  //! which always exists, to manage the others).
  bool OpenFor(const std::string& environment, state::StoreAccess access = state::StoreAccess::ReadWrite);
  state::StateStore& store() { return *store_; }
  //! The environment the store was opened for.
  const std::string& environment() const { return store_->Environment(); }
  const ProjectConfig& project() const { return *project_; }

  //! A name of a stage of the project or of one that has state.
  bool IsStage(const std::string& name);
  //! `given` when non-empty (it must be a stage); otherwise the only stage of the project,
  //! or the stage whose directory holds the working directory. Reports and returns nullopt.
  std::optional<std::string> ResolveStage(const std::string& given);
  //! Splits positionals into an optional leading stage name and the rest.
  std::optional<std::string> StageFromArgs(std::vector<std::string>& args);

  //! -lock-timeout as a duration; reports an invalid one and returns nullopt.
  std::optional<std::chrono::milliseconds> ParseLockTimeout(const LockFlags& flags);
  //! Takes the stage's lock for `operation`, waiting per `flags`, with SIGINT/SIGTERM
  //! releasing it. Reports and returns nullopt.
  std::optional<state::ScopedStageLock> Lock(const std::string& stage, const std::string& operation,
                                             const LockFlags& flags);

  //! Reports a store failure (exit code 1).
  void Fail(const state::StateStatus& status);
  void Error(const std::string& summary, const std::string& detail);
  void Warning(const std::string& summary, const std::string& detail);

 private:
  CommandContext& ctx_;
  SourceRegistry sources_;
  std::optional<ProjectConfig> project_;
  std::unique_ptr<state::StateStore> store_;
};

// The state subcommands, registered on the `state` command by AddStateCommand.
void AddStateListCommand(CLI::App* state, CommandContext& ctx);
void AddStateShowCommand(CLI::App* state, CommandContext& ctx);
void AddStateRmCommand(CLI::App* state, CommandContext& ctx);
void AddStateMvCommand(CLI::App* state, CommandContext& ctx);
void AddStatePullCommand(CLI::App* state, CommandContext& ctx);
void AddStatePushCommand(CLI::App* state, CommandContext& ctx);
void AddStateHistoryCommand(CLI::App* state, CommandContext& ctx);
void AddStateRollbackCommand(CLI::App* state, CommandContext& ctx);
void AddStateRekeyCommand(CLI::App* state, CommandContext& ctx);
void AddStateRecoverCommand(CLI::App* state, CommandContext& ctx);
void AddStateMigrateCommand(CLI::App* state, CommandContext& ctx);

//! The body of a `state` verb that edits one stage under its lock: it gets the opened
//! session, the stage, the positionals after it, and the lock flags.
using LockedStageVerb = std::function<void(StateSession& session, const std::string& stage,
                                           std::vector<std::string>& rest, const LockFlags& lock)>;

//! Registers `state NAME [STAGE] ARGS...` with -lock-timeout; the callback opens the state,
//! resolves the stage from the positionals, and then calls `run`.
void AddLockedStageVerb(CLI::App* parent, CommandContext& ctx, const std::string& name,
                        const std::string& description, const std::string& args_help, LockedStageVerb run);

}  // namespace strata::cli
