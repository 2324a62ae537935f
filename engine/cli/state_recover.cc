// `strata state recover [STAGE] [-file F] [-force]`: writes what an apply saved in a recovery
// file (its database went away mid-apply: state/recovering_store.h) into the state, then
// moves the file to .strata/recovery/recovered/.

#include <filesystem>
#include <ostream>

#include "engine/cli/run_session.h"
#include "engine/cli/state_session.h"
#include "engine/cli/wiring.h"
#include "state/recovery_file.h"
#include "state/recovery_push.h"

namespace strata::cli {
namespace {

// Keeps a pushed file of the project's recovery directory for the record, out of the way
// of PendingRecoveryFiles (a -file from elsewhere stays where it is).
void ArchiveRecoveryFile(const std::string& path, const std::string& recovery_dir, std::ostream& out) {
  std::filesystem::path from(path);
  std::error_code same_ec;
  if (!std::filesystem::equivalent(from.parent_path(), recovery_dir, same_ec)) return;
  std::filesystem::path dir = from.parent_path() / "recovered";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::filesystem::rename(from, dir / from.filename(), ec);
  if (ec) {
    std::filesystem::remove(from, ec);
    return;
  }
  out << "  The file is kept as " << (dir / from.filename()).string() << ".\n";
}

void RecoverOne(StateSession& session, CommandContext& ctx, const std::string& path, const std::string& only_stage,
                bool force, const LockFlags& lock) {
  auto file = state::ReadRecoveryFile(path);
  if (!file.ok()) return session.Fail(file.status());
  if (file->environment != session.environment()) {
    return session.Error("Recovery file of another environment",
                         path + " holds results for environment \"" + file->environment + "\", but the selected one "
                         "is \"" + session.environment() + "\": run again with STRATA_ENV=" + file->environment + ".");
  }
  if (!only_stage.empty() && file->stage != only_stage) {
    return session.Error("Recovery file of another stage",
                         path + " holds results for stage \"" + file->stage + "\", not \"" + only_stage + "\".");
  }
  auto keys = LoadProjectKeyRing(session.project());
  if (!keys.ok()) return session.Fail(keys.status());
  if (!file->secrets_masked && !file->key_id.empty() && !keys->Find(file->key_id)) {
    return session.Error("State key missing",
                         path + " holds secrets sealed with the state key " + file->key_id +
                             ", which is not configured now: set STRATA_STATE_KEY (or STRATA_STATE_OLD_KEY) to it.");
  }
  auto held = session.Lock(file->stage, "state recover", lock);
  if (!held) return;
  state::RecoveryPushOptions options;
  options.force = force;
  options.keys = *keys;
  auto pushed = state::PushRecovery(session.store(), held->id(), *file, options);
  if (!pushed.ok()) return session.Fail(pushed.status());
  if (pushed->already_pushed) {
    *ctx.out << "Stage " << file->stage << ": " << path << " was recovered already (serial " << pushed->serial
             << "); nothing written.\n";
  } else {
    *ctx.out << "Stage " << file->stage << ": recovered " << pushed->written << " write(s) from " << path
             << " (serial " << pushed->serial << ").\n";
    for (const std::string& s : pushed->skipped) *ctx.out << "  Skipped " << s << ".\n";
    for (const std::string& w : pushed->warnings) session.Warning("Recovered with masked secrets", w);
  }
  ArchiveRecoveryFile(path, state::RecoveryDir(session.project().root_dir), *ctx.out);
}

}  // namespace

void AddStateRecoverCommand(CLI::App* parent, CommandContext& ctx) {
  auto stage = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  auto lock = std::make_shared<LockFlags>();
  auto* cmd = parent->add_subcommand(
      "recover", "Write the results an apply saved when its state database went away: state recover [STAGE] [-file F]");
  cmd->add_option("stage", *stage, "The stage (default: every stage with a recovery file)");
  cmd->add_option("--file", *file, "One recovery file (default: those in .strata/recovery)");
  cmd->add_flag("--force", *force, "Write the results although the stage changed since (pending operations only)");
  lock->AddTo(cmd);
  cmd->callback([stage, file, force, lock, &ctx] {
    StateSession session(ctx);
    if (!session.Open()) return;
    if (!stage->empty() && !session.IsStage(*stage)) {
      return session.Error("Unknown stage", "\"" + *stage + "\" is not a stage of this project.");
    }
    std::vector<std::string> files;
    if (!file->empty()) {
      files.push_back(ResolvePath(ctx, *file));
    } else {
      files = state::PendingRecoveryFiles(state::RecoveryDir(session.project().root_dir), session.environment(), *stage);
    }
    if (files.empty()) {
      *ctx.out << "No recovery file to push" << (stage->empty() ? "" : " for stage " + *stage) << " in "
               << state::RecoveryDir(session.project().root_dir) << ".\n";
      return;
    }
    for (const std::string& path : files) {
      RecoverOne(session, ctx, path, *stage, *force, *lock);
      if (ctx.exit_code != 0) return;
    }
  });
}

}  // namespace strata::cli
