#include "engine/cli/command.h"

namespace strata::cli {

void AddAllCommands(CLI::App& app, CommandContext& ctx) {
  AddVersionCommand(app, ctx);
  AddInitCommand(app, ctx);
  AddValidateCommand(app, ctx);
  AddLintCommand(app, ctx);
  AddPlanCommand(app, ctx);
  AddApplyCommand(app, ctx);
  AddRefreshCommand(app, ctx);
  AddShowCommand(app, ctx);
  AddConsoleCommand(app, ctx);
  AddGraphCommand(app, ctx);
  AddStateCommand(app, ctx);
  AddOutputCommand(app, ctx);
  AddForceUnlockCommand(app, ctx);
  AddSandboxCommand(app, ctx);
  AddProvidersCommand(app, ctx);
  AddImportCommand(app, ctx);
  AddEnvCommand(app, ctx);
  AddPipelineCommand(app, ctx);
}

}  // namespace strata::cli
