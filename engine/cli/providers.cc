// `strata providers`: the providers compiled in, each with its source address and how many
// resource and data source types it serves. `strata providers schema -json`: every type's
// attributes and blocks in `terraform providers schema -json`'s shape (providers/schema_json.h),
// for editors, linters and policy tools. Without -json it refuses, as Terraform does.

#include <nlohmann/json.hpp>

#include "engine/cli/command.h"
#include "engine/cli/wiring.h"
#include "providers/schema_json.h"

namespace strata::cli {

namespace {

void ListProviders(CommandContext& ctx) {
  ProviderRegistry registry = DefaultProviders();
  *ctx.out << "Providers compiled into this Strata:\n\n";
  for (const std::string& name : registry.Names()) {
    const ProviderSchema* schema = registry.SchemaOf(name);
    if (!schema) continue;
    *ctx.out << "provider[strata/" << name << "]: " << schema->resources.size() << " resource types, "
             << schema->data_sources.size() << " data sources\n";
  }
  *ctx.out << "\nEvery type's attributes: strata providers schema -json\n";
}

void PrintSchemas(CommandContext& ctx, bool json) {
  if (!json) {
    Diagnostics diags;
    diags.Error("The -json flag is required",
                "strata providers schema prints the schemas as JSON only, in the shape of terraform providers schema "
                "-json: run strata providers schema -json.");
    ctx.Report(diags);
    ctx.exit_code = 1;
    return;
  }
  *ctx.out << ProviderSchemasJson(DefaultProviders()).dump() << "\n";
}

}  // namespace

void AddProvidersCommand(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("providers", "List the providers and their types; `providers schema -json` prints "
                                              "every type's schema");
  auto* schema = cmd->add_subcommand("schema", "Every provider's resource and data source schemas as JSON");
  auto json = std::make_shared<bool>(false);
  schema->add_flag("--json", *json, "Print as JSON (required)");
  schema->callback([json, &ctx] { PrintSchemas(ctx, *json); });
  cmd->callback([cmd, &ctx] {
    if (cmd->get_subcommands().empty()) ListProviders(ctx);
  });
}

}  // namespace strata::cli
