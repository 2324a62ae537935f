#include <ostream>

#include "engine/cli/stage_flags.h"

namespace strata::cli {

void AddGraphCommand(CLI::App& app, CommandContext& ctx) {
  auto stage = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("graph", "Print the dependency graph in Graphviz DOT (of a stage, or of the stages)");
  cmd->add_option("stage", *stage, "The stage to draw (default: the project's stages and their dependencies)");
  cmd->callback([stage, &ctx] {
    ProjectSession session(ctx);
    if (!session.Open()) {
      session.Report();
      return;
    }
    std::string dot = session.engine().GraphDot(session.project(), *stage, session.diags());
    if (session.Report()) return;
    *ctx.out << dot;
  });
}

}  // namespace strata::cli
