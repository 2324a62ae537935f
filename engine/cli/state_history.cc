// `strata state history`, `strata state rollback` and `strata state rekey`.

#include <fmt/format.h>

#include <ostream>

#include "engine/cli/state_session.h"

namespace strata::cli {

void AddStateHistoryCommand(CLI::App* parent, CommandContext& ctx) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto* cmd = parent->add_subcommand("history", "List the kept serials of a stage's state: state history [STAGE]");
  cmd->add_option("args", *args, "The stage");
  cmd->callback([args, &ctx] {
    StateSession session(ctx);
    if (!session.Open(state::StoreAccess::ReadOnly)) return;
    std::vector<std::string> rest = *args;
    auto stage = session.StageFromArgs(rest);
    if (!stage) return;
    auto history = session.store().History(*stage);
    if (!history.ok()) return session.Fail(history.status());
    if (history->empty()) {
      *ctx.out << "Stage " << *stage << " has no state history yet.\n";
      return;
    }
    *ctx.out << fmt::format("{:>7}  {:<20}  {:>9}  {:>7}  {:<24}  {}\n", "SERIAL", "CREATED", "RESOURCES", "OUTPUTS",
                            "BY", "OPERATION");
    bool first = true;
    for (const auto& h : *history) {
      *ctx.out << fmt::format("{:>7}  {:<20}  {:>9}  {:>7}  {:<24}  {}{}\n", h.serial,
                              state::FormatTimestamp(h.created_at), h.resource_count, h.output_count, h.holder,
                              h.operation, first ? "  (current)" : "");
      first = false;
    }
  });
}

void AddStateRollbackCommand(CLI::App* parent, CommandContext& ctx) {
  AddLockedStageVerb(
      parent, ctx, "rollback", "Restore a kept serial as a new serial: state rollback [STAGE] SERIAL",
      "The stage, then the serial",
      [&ctx](StateSession& session, const std::string& stage, std::vector<std::string>& rest, const LockFlags& lock) {
        int64_t serial = 0;
        try {
          if (rest.size() != 1) throw std::invalid_argument("count");
          size_t used = 0;
          serial = std::stoll(rest[0], &used);
          if (used != rest[0].size()) throw std::invalid_argument("trailing");
        } catch (const std::exception&) {
          return session.Error("Wrong arguments", "Usage: strata state rollback [STAGE] SERIAL (see `strata state history`)");
        }
        auto held = session.Lock(stage, "state rollback", lock);
        if (!held) return;
        auto result = session.store().Rollback(held->id(), stage, serial);
        if (!result.ok()) return session.Fail(result.status());
        *ctx.out << "Stage " << stage << " rolled back to serial " << serial << ", recorded as serial " << *result
                 << ".\nThe real infrastructure did not change: run `strata plan " << stage
                 << "` to see the difference.\n";
      });
}

void AddStateRekeyCommand(CLI::App* parent, CommandContext& ctx) {
  auto* cmd = parent->add_subcommand(
      "rekey",
      "Re-encrypt every secret in state with STRATA_STATE_KEY (set the previous key in STRATA_STATE_OLD_KEY)");
  cmd->callback([&ctx] {
    StateSession session(ctx);
    if (!session.Open()) return;
    auto count = session.store().Rekey();
    if (!count.ok()) return session.Fail(count.status());
    if (session.store().EncryptsSecrets()) {
      *ctx.out << "Re-encrypted " << *count << " secret value(s) with the current state key.\n";
    } else {
      *ctx.out << "No state key is set: decrypted " << *count << " secret value(s); secrets are now stored in clear.\n";
    }
  });
}

}  // namespace strata::cli
