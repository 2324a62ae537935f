#include <filesystem>
#include <functional>
#include <ostream>

#include <fmt/format.h>

#include "engine/cli/stage_flags.h"
#include "engine/cli/wiring.h"

namespace fs = std::filesystem;

namespace strata::cli {
namespace {

// Counts the module calls under a module, depth first.
void ListModules(const ModuleConfig& module, const std::string& indent, std::ostream& out) {
  for (const auto& [name, call] : module.modules) {
    out << indent << "- module." << name << " from " << call.source << "\n";
    if (call.module) ListModules(*call.module, indent + "  ", out);
  }
}

void RunInit(CommandContext& ctx) {
  ProjectSession session(ctx);
  if (!session.Open()) {
    session.Report();
    ctx.exit_code = 1;
    return;
  }
  const ProjectConfig& project = session.project();
  std::error_code ec;
  fs::path state_dir = fs::path(project.StatePath()).parent_path();
  fs::create_directories(fs::path(project.root_dir) / ".strata", ec);
  if (!ec) fs::create_directories(state_dir, ec);
  if (ec) {
    session.diags().Error("Cannot create the state directory",
                          fmt::format("Creating {} failed: {}. Check the permissions of the project directory.", state_dir.string(), ec.message()));
    session.Report();
    return;
  }
  std::ostream& out = *ctx.out;
  out << "Initializing project " << (project.name.empty() ? "(unnamed)" : project.name) << " in " << project.root_dir << "\n\n";
  std::vector<std::string> order = session.engine().StageOrder(project, session.diags());
  for (const auto& name : order) {
    const StageConfig* stage = project.FindStage(name);
    auto loaded = session.engine().LoadStage(project, name, session.diags());
    size_t resources = 0, modules = 0;
    if (loaded && loaded->graph) {
      for (const auto& m : loaded->graph->modules) resources += m.resources.size() + m.data.size();
      modules = loaded->graph->modules.size() - 1;
    }
    out << fmt::format("Stage {} ({}): {} resource{}, {} module{}", name, stage->path, resources, resources == 1 ? "" : "s", modules,
                       modules == 1 ? "" : "s");
    if (loaded && loaded->graph && !loaded->graph->stage_dependencies.empty()) {
      std::string deps;
      for (const auto& d : loaded->graph->stage_dependencies) deps += (deps.empty() ? "" : ", ") + d;
      out << ", reads from " << deps;
    }
    out << "\n";
    if (loaded && loaded->root) ListModules(*loaded->root, "  ", out);
  }
  out << fmt::format("\nState: {}\n", ProjectStateLocation(project));
  auto store = OpenProjectStore(project, state::kDefaultEnvironment);
  if (!store.ok()) {
    session.diags().Add(store.status().ToDiagnostic());
  } else if (std::string warning = UnencryptedSecretsWarning(**store); !warning.empty()) {
    session.diags().Warning("Secrets are stored in clear", warning);
  }
  if (session.Report()) {
    out << "\nInitialization found problems; fix them and run strata init again.\n";
    return;
  }
  out << "\nStrata has been successfully initialized!\n"
      << "Next: run \"strata validate\" to check every stage, or \"strata graph <stage>\" to see its dependencies.\n";
}

}  // namespace

void AddInitCommand(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("init", "Prepare the project: create .strata/, load every stage and its modules");
  cmd->callback([&ctx] { RunInit(ctx); });
}

}  // namespace strata::cli
