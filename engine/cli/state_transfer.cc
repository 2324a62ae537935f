// `strata state pull` and `strata state push`: the stage's state as portable JSON.

#include <fstream>
#include <ostream>
#include <sstream>

#include "engine/cli/state_session.h"
#include "state/state_json.h"

namespace strata::cli {

void AddStatePullCommand(CLI::App* parent, CommandContext& ctx) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto show_sensitive = std::make_shared<bool>(false);
  auto* cmd = parent->add_subcommand("pull", "Print a stage's state as JSON (secrets masked): state pull [STAGE]");
  cmd->add_option("args", *args, "The stage");
  cmd->add_flag("--show-sensitive", *show_sensitive, "Include sensitive values (needs the state key)");
  cmd->callback([args, show_sensitive, &ctx] {
    StateSession session(ctx);
    if (!session.Open(state::StoreAccess::ReadOnly)) return;
    std::vector<std::string> rest = *args;
    auto stage = session.StageFromArgs(rest);
    if (!stage) return;
    if (!rest.empty()) return session.Error("Wrong arguments", "Usage: strata state pull [STAGE] [-show-sensitive]");
    auto loaded = session.store().LoadStage(*stage, {.decrypt_secrets = *show_sensitive});
    if (!loaded.ok()) return session.Fail(loaded.status());
    if (!loaded->exists) return session.Error("No state", "Stage \"" + *stage + "\" has no state yet.");
    *ctx.out << state::StageStateToJson(*loaded, *show_sensitive).dump(2) << "\n";
  });
}

void AddStatePushCommand(CLI::App* parent, CommandContext& ctx) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto force = std::make_shared<bool>(false);
  auto lock = std::make_shared<LockFlags>();
  auto* cmd = parent->add_subcommand("push", "Replace a stage's state with a JSON file: state push [STAGE] FILE ('-' for stdin)");
  cmd->add_option("args", *args, "The stage, then the file")->required();
  cmd->add_flag("--force", *force, "Skip the lineage and serial checks");
  lock->AddTo(cmd);
  cmd->callback([args, force, lock, &ctx] {
    StateSession session(ctx);
    if (!session.Open()) return;
    std::vector<std::string> rest = *args;
    std::optional<std::string> given;
    if (rest.size() == 2) {
      given = rest[0];
      rest.erase(rest.begin());
    }
    if (rest.size() != 1) return session.Error("Wrong arguments", "Usage: strata state push [STAGE] FILE [-force]");
    std::stringstream text;
    if (rest[0] == "-") {
      text << ctx.in->rdbuf();
    } else {
      std::ifstream in(rest[0]);
      if (!in) return session.Error("Cannot read the state file", "Opening " + rest[0] + " failed.");
      text << in.rdbuf();
    }
    auto json = nlohmann::json::parse(text.str(), nullptr, false);
    if (json.is_discarded()) return session.Error("Invalid state file", rest[0] + " is not valid JSON.");
    auto parsed = state::StageStateFromJson(json);
    if (!parsed.ok()) return session.Fail(parsed.status());
    std::string file_stage = parsed->stage;
    auto stage = session.ResolveStage(given ? *given : file_stage);
    if (!stage) return;
    if (!file_stage.empty() && file_stage != *stage && !*force) {
      return session.Error("Stage mismatch", "The file holds the state of stage \"" + file_stage +
                                                 "\", not of \"" + *stage + "\". Use -force to push it anyway.");
    }
    parsed->stage = *stage;
    auto held = session.Lock(*stage, "state push", *lock);
    if (!held) return;
    state::ReplaceOptions options;
    options.force = *force;
    auto serial = session.store().ReplaceStage(held->id(), *parsed, options);
    if (!serial.ok()) return session.Fail(serial.status());
    *ctx.out << "Pushed " << parsed->resources.size() << " resource instance(s) and " << parsed->outputs.size()
             << " output(s) to stage " << *stage << " (serial " << *serial << ").\n";
  });
}

}  // namespace strata::cli
