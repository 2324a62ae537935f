// strata env list|new|select|delete|show: the project's environments (README
// "Environments"). The environments live in the state store; the selection lives in the
// project's .strata/environment (environment_selection.h). The verbs open the store for
// `default`, which always exists, so that they work whatever is selected.

#include <cstdlib>
#include <ostream>

#include <fmt/format.h>

#include "engine/cli/environment_selection.h"
#include "engine/cli/state_session.h"

namespace strata::cli {
namespace {

// The selected environment (-env, STRATA_ENV, .strata/environment); reports a bad name.
std::optional<EnvironmentChoice> Current(CommandContext& ctx, StateSession& session) {
  Diagnostics diags;
  auto chosen = ChooseEnvironment(ctx, session.project().root_dir, diags);
  if (!chosen) ctx.Report(diags);
  return chosen;
}

bool Exists(StateSession& session, const std::string& name) {
  auto all = session.store().ListEnvironments();
  if (!all.ok()) {
    session.Fail(all.status());
    return false;
  }
  for (const auto& e : *all) {
    if (e.name == name) return true;
  }
  session.Error("No such environment", fmt::format("The environment \"{}\" does not exist. Create it with `strata env "
                                                   "new {}` (`strata env list` lists the ones that exist).",
                                                   name, name));
  return false;
}

bool Select(StateSession& session, const std::string& name) {
  if (std::string error = RecordSelectedEnvironment(session.project().root_dir, name); !error.empty()) {
    session.Error("Cannot record the selected environment", error);
    return false;
  }
  const char* from_env = std::getenv("STRATA_ENV");
  if (from_env && *from_env && name != from_env) {
    session.Warning("STRATA_ENV overrides the selection",
                    fmt::format("STRATA_ENV is set to \"{}\", which commands use before the selection; unset it to "
                                "work in \"{}\".",
                                from_env, name));
  }
  return true;
}

void RunList(CommandContext& ctx) {
  StateSession session(ctx);
  if (!session.OpenFor(state::kDefaultEnvironment, state::StoreAccess::ReadOnly)) return;
  auto current = Current(ctx, session);
  if (!current) return;
  auto all = session.store().ListEnvironments();
  if (!all.ok()) return session.Fail(all.status());
  for (const auto& e : *all) {
    *ctx.out << (e.name == current->name ? "* " : "  ") << e.name;
    if (e.stages > 0) {
      *ctx.out << fmt::format("  ({} stage{}, {} resource{})", e.stages, e.stages == 1 ? "" : "s", e.resources,
                              e.resources == 1 ? "" : "s");
    }
    *ctx.out << "\n";
  }
}

void RunNew(CommandContext& ctx, const std::string& name) {
  StateSession session(ctx);
  if (!session.OpenFor(state::kDefaultEnvironment)) return;
  if (auto created = session.store().CreateEnvironment(name); !created.ok()) return session.Fail(created);
  if (!Select(session, name)) return;
  *ctx.out << fmt::format("Created and switched to environment \"{}\".\n\n"
                          "It has no state yet: `strata apply STAGE` deploys its stages, reading its variables\n"
                          "from envs/{}.yaml when that file exists.\n",
                          name, name);
}

void RunSelect(CommandContext& ctx, const std::string& name) {
  StateSession session(ctx);
  if (!session.OpenFor(state::kDefaultEnvironment, state::StoreAccess::ReadOnly)) return;
  if (!Exists(session, name) || !Select(session, name)) return;
  *ctx.out << fmt::format("Switched to environment \"{}\".\n", name);
}

void RunDelete(CommandContext& ctx, const std::string& name, bool force) {
  StateSession session(ctx);
  if (!session.OpenFor(state::kDefaultEnvironment)) return;
  auto current = Current(ctx, session);
  if (!current) return;
  if (name == current->name && name != state::kDefaultEnvironment) {
    return session.Error("Cannot delete the environment in use",
                         fmt::format("\"{}\" is the environment this command works in (from {}): select another "
                                     "first, e.g. `strata env select default`.",
                                     name, current->source));
  }
  if (auto deleted = session.store().DeleteEnvironment(name, force); !deleted.ok()) return session.Fail(deleted);
  *ctx.out << fmt::format("Deleted environment \"{}\".\n", name);
}

void RunShow(CommandContext& ctx) {
  StateSession session(ctx);
  if (!session.OpenFor(state::kDefaultEnvironment, state::StoreAccess::ReadOnly)) return;
  if (auto current = Current(ctx, session)) *ctx.out << current->name << "\n";
}

}  // namespace

void AddEnvCommand(CLI::App& app, CommandContext& ctx) {
  auto* env = app.add_subcommand("env", "Manage environments: the same stages deployed apart (dev, staging, prod)");
  env->require_subcommand(1);

  env->add_subcommand("list", "List the environments; * marks the selected one")->callback([&ctx] { RunList(ctx); });

  auto new_name = std::make_shared<std::string>();
  auto* create = env->add_subcommand("new", "Create an environment and select it");
  create->add_option("name", *new_name, "The environment's name")->required();
  create->callback([new_name, &ctx] { RunNew(ctx, *new_name); });

  auto select_name = std::make_shared<std::string>();
  auto* select = env->add_subcommand("select", "Select the environment later commands work in");
  select->add_option("name", *select_name, "An existing environment")->required();
  select->callback([select_name, &ctx] { RunSelect(ctx, *select_name); });

  auto delete_name = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  auto* remove = env->add_subcommand("delete", "Delete an environment and its state");
  remove->add_option("name", *delete_name, "The environment to delete")->required();
  remove->add_flag("--force", *force, "Delete it even though its state still holds resources (they stay in the world)");
  remove->callback([delete_name, force, &ctx] { RunDelete(ctx, *delete_name, *force); });

  env->add_subcommand("show", "Print the selected environment")->callback([&ctx] { RunShow(ctx); });
}

}  // namespace strata::cli
