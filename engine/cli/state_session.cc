#include "engine/cli/state_session.h"

#include <filesystem>
#include <utility>

#include "engine/base/duration.h"
#include "engine/cli/environment_selection.h"
#include "engine/cli/wiring.h"

namespace strata::cli {

void LockFlags::AddTo(CLI::App* cmd) {
  cmd->add_option("--lock-timeout", timeout, "How long to wait for the stage's state lock (e.g. 10s, 2m)")
      ->option_text("DURATION");
}

namespace {

// The project root: the working directory or the nearest parent holding strata.yaml, so that
// state commands also work from inside a stage's directory.
std::string FindProjectDir(const std::string& working_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::path dir = fs::path(working_dir); !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / "strata.yaml", ec)) return dir.string();
    if (dir == dir.root_path()) break;
  }
  return working_dir;
}

}  // namespace

bool StateSession::Open(state::StoreAccess access) { return OpenFor("", access); }

bool StateSession::OpenFor(const std::string& environment, state::StoreAccess access) {
  Diagnostics diags;
  project_ = LoadProject(FindProjectDir(ctx_.WorkingDir()), sources_, diags);
  std::optional<EnvironmentChoice> chosen;
  if (project_ && !diags.HasErrors()) {
    chosen = environment.empty() ? ChooseEnvironment(ctx_, project_->root_dir, diags)
                                 : EnvironmentChoice{environment, "the command"};
  }
  if (!project_ || diags.HasErrors()) {
    ctx_.Report(diags, &sources_);
    ctx_.exit_code = 1;
    return false;
  }
  auto store = OpenProjectStore(*project_, chosen->name, state::StateEnvironment::System(), access);
  if (!store.ok()) {
    Fail(store.status());
    return false;
  }
  store_ = std::move(*store);
  return true;
}

bool StateSession::IsStage(const std::string& name) {
  if (name.empty()) return false;
  if (project_->FindStage(name)) return true;
  auto stages = store_->ListStages();
  if (!stages.ok()) return false;
  for (const auto& s : *stages) {
    if (s.name == name) return true;
  }
  return false;
}

std::optional<std::string> StateSession::ResolveStage(const std::string& given) {
  if (!given.empty()) {
    if (IsStage(given)) return given;
    std::string names;
    for (const auto& s : project_->stages) names += (names.empty() ? "" : ", ") + s.name;
    Error("Unknown stage", "\"" + given + "\" is not a stage of project " + project_->name + " (its stages: " + names + ").");
    return std::nullopt;
  }
  if (project_->stages.size() == 1) return project_->stages[0].name;
  namespace fs = std::filesystem;
  fs::path wd = fs::path(ctx_.WorkingDir()).lexically_normal();
  for (const auto& s : project_->stages) {
    fs::path dir = (fs::path(project_->root_dir) / s.path).lexically_normal();
    auto rel = wd.lexically_relative(dir);
    if (!rel.empty() && *rel.begin() != "..") return s.name;
  }
  std::string names;
  for (const auto& s : project_->stages) names += (names.empty() ? "" : ", ") + s.name;
  Error("Which stage?", "This project has several stages (" + names +
                            "): name one, e.g. `strata state list " + (project_->stages.empty() ? "STAGE" : project_->stages[0].name) +
                            "`, or run the command from inside a stage's directory.");
  return std::nullopt;
}

std::optional<std::string> StateSession::StageFromArgs(std::vector<std::string>& args) {
  std::string given;
  // A resource address always has a dot; a stage name given first never needs one.
  if (!args.empty() && args[0].find('.') == std::string::npos && IsStage(args[0])) {
    given = args[0];
    args.erase(args.begin());
  }
  return ResolveStage(given);
}

std::optional<std::chrono::milliseconds> StateSession::ParseLockTimeout(const LockFlags& flags) {
  auto parsed = base::ParseDuration(flags.timeout);
  if (!parsed) {
    Error("Invalid -lock-timeout", "\"" + flags.timeout + "\" is not a duration: use e.g. 10s, 2m or 1m30s.");
    return std::nullopt;
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(*parsed);
}

std::optional<state::ScopedStageLock> StateSession::Lock(const std::string& stage, const std::string& operation,
                                                         const LockFlags& flags) {
  auto timeout = ParseLockTimeout(flags);
  if (!timeout) return std::nullopt;
  // main() installed the interrupt handler: SIGINT/SIGTERM release the lock (or, during an
  // apply, stop it gracefully).
  auto lock = state::ScopedStageLock::Acquire(*store_, {stage, operation, *timeout});
  if (!lock.ok()) {
    Fail(lock.status());
    return std::nullopt;
  }
  if (Diagnostics warning = state::TakeoverWarning(lock->info()); !warning.empty()) ctx_.Report(warning);
  return std::move(*lock);
}

void StateSession::Fail(const state::StateStatus& status) {
  Diagnostics diags;
  diags.Add(status.ToDiagnostic());
  ctx_.Report(diags);
  ctx_.exit_code = 1;
}

void StateSession::Error(const std::string& summary, const std::string& detail) {
  Diagnostics diags;
  diags.Error(summary, detail);
  ctx_.Report(diags);
  ctx_.exit_code = 1;
}

void StateSession::Warning(const std::string& summary, const std::string& detail) {
  Diagnostics diags;
  diags.Warning(summary, detail);
  ctx_.Report(diags);
}

void AddLockedStageVerb(CLI::App* parent, CommandContext& ctx, const std::string& name,
                        const std::string& description, const std::string& args_help, LockedStageVerb run) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto lock = std::make_shared<LockFlags>();
  auto* cmd = parent->add_subcommand(name, description);
  cmd->add_option("args", *args, args_help)->required();
  lock->AddTo(cmd);
  cmd->callback([args, lock, run = std::move(run), &ctx] {
    StateSession session(ctx);
    if (!session.Open()) return;
    std::vector<std::string> rest = *args;
    auto stage = session.StageFromArgs(rest);
    if (!stage) return;
    run(session, *stage, rest, *lock);
  });
}

}  // namespace strata::cli
