// `strata providers`: the providers compiled in, each with its source address and how many
// resource and data source types it serves. `strata providers schema -json`: every type's
// attributes and blocks in `terraform providers schema -json`'s shape (providers/schema_json.h),
// for editors, linters and policy tools. Without -json it refuses, as Terraform does.

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/cli/command.h"
#include "engine/cli/wiring.h"
#include "providers/schema_docs.h"
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

// `providers docs DIR`: writes the reference pages; with -check, only says which differ
// from what DIR holds (the test that keeps docs/reference current).
void WriteReferencePages(CommandContext& ctx, const std::string& given, bool check) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(ctx.WorkingDir()) / given;
  std::vector<std::string> stale;
  for (const auto& [relative, text] : ProviderReferencePages(DefaultProviders())) {
    fs::path path = dir / relative;
    std::ifstream in(path);
    std::stringstream held;
    held << in.rdbuf();
    if (in && held.str() == text) continue;
    if (check) {
      stale.push_back(relative);
      continue;
    }
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path);
    out << text;
    if (!out.flush()) stale.push_back(relative);
  }
  if (stale.empty()) {
    *ctx.out << (check ? "The reference pages in " + given + " are current.\n" : "Wrote the reference pages to " + given + ".\n");
    return;
  }
  std::string list;
  for (const std::string& s : stale) list += "\n  " + s;
  Diagnostics diags;
  diags.Error(check ? "Reference pages out of date" : "Cannot write the reference pages",
              check ? fmt::format("These pages differ from the schemas:{}\nRun `strata providers docs {}` and commit them.",
                                  list, given)
                    : fmt::format("These could not be written:{}", list));
  ctx.Report(diags);
}

}  // namespace

void AddProvidersCommand(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("providers", "List the providers and their types; `providers schema -json` prints "
                                              "every type's schema");
  auto* schema = cmd->add_subcommand("schema", "Every provider's resource and data source schemas as JSON");
  auto json = std::make_shared<bool>(false);
  schema->add_flag("--json", *json, "Print as JSON (required)");
  schema->callback([json, &ctx] { PrintSchemas(ctx, *json); });
  auto* docs = cmd->add_subcommand("docs", "Write a Markdown reference page per resource and data source type into DIR");
  auto dir = std::make_shared<std::string>();
  auto check = std::make_shared<bool>(false);
  docs->add_option("dir", *dir, "The directory (docs/reference in the repository)")->required();
  docs->add_flag("--check", *check, "Write nothing; fail when a page differs from the schemas");
  docs->callback([dir, check, &ctx] { WriteReferencePages(ctx, *dir, *check); });
  cmd->callback([cmd, &ctx] {
    if (cmd->get_subcommands().empty()) ListProviders(ctx);
  });
}

}  // namespace strata::cli
