// `strata state rm` and `strata state mv`: edits that take the stage's lock.

#include <ostream>

#include "engine/cli/run_session.h"
#include "engine/cli/state_session.h"
#include "engine/core/moves.h"

namespace strata::cli {

void AddStateRmCommand(CLI::App* parent, CommandContext& ctx) {
  AddLockedStageVerb(
      parent, ctx, "rm", "Forget resource instances (they stay in the world): state rm [STAGE] ADDRESS...",
      "A stage, then addresses",
      [&ctx](StateSession& session, const std::string& stage, std::vector<std::string>& rest, const LockFlags& lock) {
        if (rest.empty()) return session.Error("Missing address", "Usage: strata state rm [STAGE] ADDRESS...");
        auto held = session.Lock(stage, "state rm", lock);
        if (!held) return;
        auto serial = session.store().RemoveResources(held->id(), stage, rest);
        if (!serial.ok()) return session.Fail(serial.status());
        for (const auto& a : rest) *ctx.out << "Removed " << a << "\n";
        *ctx.out << "Successfully removed " << rest.size() << " address(es) from stage " << stage << " (serial "
                 << *serial << ").\n";
      });
}

namespace {

// A move across resource types: the target type's provider converts the state (no API call).
state::StateResult<state::ResourceInstanceState> ConvertForStateMv(const state::ResourceInstanceState& from,
                                                                    const ResourceInstanceAddr& to) {
  Diagnostics diags;
  std::optional<state::ResourceInstanceState> converted = ConvertMovedInstance(CompiledProviders(), from, to, diags);
  if (converted) return *converted;
  std::string message;
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error) continue;
    message += (message.empty() ? "" : "; ") + d.summary + ": " + d.detail;
  }
  return state::StateStatus::Error(state::StateCode::InvalidArgument, message);
}

}  // namespace

void AddStateMvCommand(CLI::App* parent, CommandContext& ctx) {
  AddLockedStageVerb(
      parent, ctx, "mv",
      "Rename a resource instance, resource or module in state: state mv [STAGE] SOURCE DESTINATION",
      "A stage, then source and destination addresses",
      [&ctx](StateSession& session, const std::string& stage, std::vector<std::string>& rest, const LockFlags& lock) {
        if (rest.size() != 2) return session.Error("Wrong arguments", "Usage: strata state mv [STAGE] SOURCE DESTINATION");
        auto held = session.Lock(stage, "state mv", lock);
        if (!held) return;
        auto serial = session.store().MoveResource(held->id(), stage, rest[0], rest[1], ConvertForStateMv);
        if (!serial.ok()) return session.Fail(serial.status());
        *ctx.out << "Move \"" << rest[0] << "\" to \"" << rest[1] << "\"\nSuccessfully moved in stage " << stage
                 << " (serial " << *serial << ").\n";
      });
}

}  // namespace strata::cli
