#include <ostream>

#include <nlohmann/json.hpp>

#include "engine/cli/command.h"
#include "engine/core/version.h"

namespace strata::cli {

void AddVersionCommand(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("version", "Show the Strata version");
  cmd->add_flag("--json", ctx.global.json, "Print the version as JSON");
  cmd->callback([&ctx] {
    if (ctx.global.json) {
      *ctx.out << nlohmann::json{{"strata_version", kStrataVersion}, {"platform", "linux_amd64"}}.dump(2) << "\n";
    } else {
      *ctx.out << "Strata v" << kStrataVersion << "\n";
    }
  });
}

}  // namespace strata::cli
