// `strata state ...`: the group, and the read-only `state list` and `state show`.

#include <algorithm>
#include <ostream>

#include "engine/cli/state_session.h"
#include "engine/value/format.h"

namespace strata::cli {
namespace {

// Terraform's filter rule: an address matches itself, its instances, and everything in a module.
bool MatchesFilter(const std::string& address, const std::string& filter) {
  if (address == filter) return true;
  for (char next : {'[', '.'}) {
    if (address.rfind(filter + next, 0) == 0) return true;
  }
  return false;
}

void ListStage(StateSession& session, const std::string& stage, const std::vector<std::string>& filters,
               std::ostream& out, bool header) {
  auto loaded = session.store().LoadStage(stage, {.decrypt_secrets = false});
  if (!loaded.ok()) return session.Fail(loaded.status());
  if (header) out << "# stage " << stage << " (serial " << loaded->serial << ")\n";
  for (const auto& r : loaded->resources) {
    std::string address = r.addr.ToString();
    if (!filters.empty() &&
        std::none_of(filters.begin(), filters.end(), [&](const std::string& f) { return MatchesFilter(address, f); })) {
      continue;
    }
    out << address;
    if (r.status != state::ResourceStatus::Created) out << "  (" << state::ToString(r.status) << ")";
    out << "\n";
  }
}

}  // namespace

void AddStateListCommand(CLI::App* parent, CommandContext& ctx) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto* cmd = parent->add_subcommand("list", "List the resource instances in state: state list [STAGE] [ADDRESS...]");
  cmd->add_option("args", *args, "A stage, then addresses to filter by");
  cmd->callback([args, &ctx] {
    StateSession session(ctx);
    if (!session.Open(state::StoreAccess::ReadOnly)) return;
    std::vector<std::string> rest = *args;
    bool explicit_stage = !rest.empty() && rest[0].find('.') == std::string::npos && session.IsStage(rest[0]);
    if (!explicit_stage && session.project().stages.size() > 1 && rest.empty()) {
      auto stages = session.store().ListStages();
      if (!stages.ok()) return session.Fail(stages.status());
      for (const auto& s : *stages) ListStage(session, s.name, {}, *ctx.out, true);
      return;
    }
    auto stage = session.StageFromArgs(rest);
    if (!stage) return;
    ListStage(session, *stage, rest, *ctx.out, false);
  });
}

void AddStateShowCommand(CLI::App* parent, CommandContext& ctx) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto show_sensitive = std::make_shared<bool>(false);
  auto* cmd = parent->add_subcommand("show", "Show one resource instance in state: state show [STAGE] ADDRESS");
  cmd->add_option("args", *args, "A stage, then the address")->required();
  cmd->add_flag("--show-sensitive", *show_sensitive, "Show sensitive values (needs the state key)");
  cmd->callback([args, show_sensitive, &ctx] {
    StateSession session(ctx);
    if (!session.Open(state::StoreAccess::ReadOnly)) return;
    std::vector<std::string> rest = *args;
    auto stage = session.StageFromArgs(rest);
    if (!stage) return;
    if (rest.size() != 1) return session.Error("Wrong arguments", "Usage: strata state show [STAGE] ADDRESS");
    auto addr = ParseResourceInstanceAddr(rest[0]);
    if (!addr.addr) return session.Error("Invalid address", "\"" + rest[0] + "\": " + addr.error);
    auto loaded = session.store().LoadStage(*stage, {.decrypt_secrets = *show_sensitive});
    if (!loaded.ok()) return session.Fail(loaded.status());
    const auto* r = loaded->FindResource(*addr.addr);
    if (!r) {
      return session.Error("No instance found for the given address",
                           rest[0] + " is not in the state of stage \"" + *stage + "\" (see `strata state list " +
                               *stage + "`).");
    }
    std::ostream& out = *ctx.out;
    out << "# " << r->addr.ToString() << ": (stage " << *stage << ", provider " << r->provider << ", "
        << state::ToString(r->status) << ")\n";
    const char* kind = r->addr.resource.mode == ResourceMode::Data ? "data" : "resource";
    out << kind << " \"" << r->addr.resource.type << "\" \"" << r->addr.resource.name << "\" {\n";
    if (r->attributes.IsMapping()) {
      size_t width = 0;
      for (const auto& [k, v] : r->attributes.AsMap()) width = std::max(width, FormatKey(k).size());
      FormatOptions options;
      options.indent = 4;
      options.reveal_sensitive = *show_sensitive;
      for (const auto& [k, v] : r->attributes.AsMap()) {
        std::string key = FormatKey(k);
        out << "    " << key << std::string(width - key.size(), ' ') << " = " << FormatValue(v, options) << "\n";
      }
    }
    out << "}\n";
    if (!r->dependencies.empty()) {
      out << "# depends on:";
      for (const auto& d : r->dependencies) out << " " << d;
      out << "\n";
    }
    if (!r->idempotency_token.empty() && r->status != state::ResourceStatus::Created) {
      out << "# idempotency token: " << r->idempotency_token << "\n";
    }
  });
}

void AddStateCommand(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("state", "Inspect and edit the state of a stage (list, show, rm, mv, pull, push, "
                                          "history, rollback, rekey, migrate)");
  cmd->require_subcommand(1);
  AddStateListCommand(cmd, ctx);
  AddStateShowCommand(cmd, ctx);
  AddStateRmCommand(cmd, ctx);
  AddStateMvCommand(cmd, ctx);
  AddStatePullCommand(cmd, ctx);
  AddStatePushCommand(cmd, ctx);
  AddStateHistoryCommand(cmd, ctx);
  AddStateRollbackCommand(cmd, ctx);
  AddStateRekeyCommand(cmd, ctx);
  AddStateRecoverCommand(cmd, ctx);
  AddStateMigrateCommand(cmd, ctx);
}

}  // namespace strata::cli
