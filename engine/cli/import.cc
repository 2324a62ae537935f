// strata import [STAGE] ADDRESS ID: takes an existing object into a stage's state at an
// address its configuration declares, as its provider reads it by id (Terraform's
// `terraform import`). Nothing is created or changed; the next plan shows what config
// would change. Import entries in module files (`import:`) do the same inside a plan.
#include <ostream>

#include <fmt/format.h>

#include "engine/cli/run_session.h"

namespace strata::cli {
namespace {

struct ImportFlags {
  PlanFlags plan;
  std::vector<std::string> positionals;  // [STAGE] ADDRESS ID
};

void RunImport(const ImportFlags& flags, CommandContext& ctx) {
  const std::vector<std::string>& args = flags.positionals;
  if (args.size() != 2 && args.size() != 3) {
    Diagnostics diags;
    diags.Error("Wrong arguments",
                "Usage: strata import [STAGE] ADDRESS ID, as in strata import network aws_vpc.main vpc-0123456789abcdef0.");
    ctx.Report(diags);
    return;
  }
  std::string stage = args.size() == 3 ? args[0] : "";
  const std::string& address = args[args.size() - 2];
  const std::string& id = args.back();
  RunSession session(ctx);
  if (!session.OpenProject() || !session.OpenStage(stage, "import", flags.plan.lock)) return;
  *ctx.out << address << ": Importing from ID \"" << id << "\"...\n";
  std::optional<ResourceInstanceChange> imported = session.Import(flags.plan, address, id);
  if (!imported) return;
  *ctx.out << address << ": Import prepared!\n  Prepared " << imported->type << " for import\n\n"
           << "Import successful!\n\n"
           << "The resources that were imported are shown above. These resources are now in\n"
           << "your Strata state and will henceforth be managed by Strata.\n";
}

}  // namespace

void AddImportCommand(CLI::App& app, CommandContext& ctx) {
  auto flags = std::make_shared<ImportFlags>();
  auto* cmd = app.add_subcommand("import", "Take an existing object into a stage's state: import [STAGE] ADDRESS ID");
  cmd->add_option("args", flags->positionals, "[STAGE] ADDRESS ID: the stage, the address config declares, the object's id")
      ->required();
  flags->plan.variables.AddTo(cmd);
  cmd->add_option("--parallelism", flags->plan.parallelism, "At most N provider operations at once")->default_val(10);
  flags->plan.lock.AddTo(cmd);
  cmd->callback([flags, &ctx] { RunImport(*flags, ctx); });
}

}  // namespace strata::cli
