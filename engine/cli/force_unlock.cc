// `strata force-unlock LOCK_ID [-force]`: remove a stage's lock left by a crashed process.

#include <istream>
#include <ostream>

#include "engine/cli/state_session.h"

namespace strata::cli {

void AddForceUnlockCommand(CLI::App& app, CommandContext& ctx) {
  auto id = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("force-unlock", "Release a stage's state lock by its ID (only when its holder is gone)");
  cmd->add_option("id", *id, "The lock ID shown in the lock error")->required();
  cmd->add_flag("--force", *force, "Do not ask for confirmation");
  cmd->callback([id, force, &ctx] {
    StateSession session(ctx);
    if (!session.Open()) return;
    if (!*force) {
      *ctx.out << "Do you really want to force-unlock the state lock " << *id << "?\n"
               << "  Strata will remove the lock, and a process still holding it will fail at its next write.\n"
               << "  Only 'yes' will be accepted to confirm.\n\n  Enter a value: " << std::flush;
      std::string answer;
      if (!ctx.in || !std::getline(*ctx.in, answer) || answer != "yes") {
        *ctx.out << "\nforce-unlock cancelled.\n";
        ctx.exit_code = 1;
        return;
      }
    }
    auto released = session.store().ForceUnlock(*id);
    if (!released.ok()) return session.Fail(released.status());
    *ctx.out << "The state lock of stage " << released->stage << " in environment " << released->environment
             << " has been released (it was held by "
             << released->Holder() << ", pid " << released->pid << ", for \"" << released->operation << "\" since "
             << state::FormatTimestamp(released->since) << ").\n";
    if (!released->still_held.empty()) *ctx.out << "But " << released->still_held << ".\n";
    // The lock may be another environment's: its journal is read there.
    StateSession lock_session(ctx);
    StateSession& where = released->environment == session.environment() ? session : lock_session;
    if (&where == &lock_session && !lock_session.OpenFor(released->environment)) return;
    auto pending = where.store().PendingOperations(released->stage);
    if (pending.ok() && !pending->empty()) {
      *ctx.out << pending->size() << " operation(s) were in flight when the holder stopped:";
      for (const auto& op : *pending) {
        *ctx.out << "\n  " << state::ToString(op.action) << " " << op.addr.ToString() << " (idempotency token "
                 << op.idempotency_token << ")";
      }
      *ctx.out << "\nThe next `strata plan "
               << (released->environment == state::kDefaultEnvironment ? "" : "-env " + released->environment + " ")
               << released->stage << "` reconciles them.\n";
    }
  });
}

}  // namespace strata::cli
