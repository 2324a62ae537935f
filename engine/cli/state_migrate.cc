// `strata state migrate -to URL`: the whole state (every environment and stage, with its
// history, journal and sealed secrets) copied to another store — SQLite to PostgreSQL and
// back — verified by per-stage counts and digests (state/store_copy.h), the source left as
// it was.

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "engine/cli/state_session.h"
#include "engine/cli/wiring.h"
#include "state/postgres/conninfo.h"

namespace strata::cli {
namespace {

struct MigrateFlags {
  std::string to;
  std::string schema;
  bool force = false;
  LockFlags lock;
};

std::string DescribeLocation(const StateLocation& l, const std::string& root) {
  if (l.backend == "postgres") return state::pg::MaskConnectionUrl(l.url) + ", schema " + l.schema + " (postgres)";
  std::error_code ec;
  std::string relative = std::filesystem::relative(l.path, root, ec).string();
  return (ec || relative.rfind("..", 0) == 0 ? l.path : relative) + " (sqlite)";
}

bool SameLocation(const StateLocation& a, const StateLocation& b) {
  if (a.backend != b.backend) return false;
  if (a.backend == "postgres") return a.url == b.url && a.schema == b.schema;
  std::error_code ec;
  return std::filesystem::weakly_canonical(a.path, ec) == std::filesystem::weakly_canonical(b.path, ec);
}

// The strata.yaml lines that point the project at `l`.
std::string YamlFor(const StateLocation& l, const std::string& root) {
  if (l.backend == "postgres") {
    return "state:\n  backend: postgres\n  url: \"" + state::pg::MaskConnectionUrl(l.url) + "\"\n  schema: " + l.schema +
           "\n";
  }
  std::error_code ec;
  std::string relative = std::filesystem::relative(l.path, root, ec).string();
  return "state:\n  backend: sqlite\n  path: " + (ec || relative.rfind("..", 0) == 0 ? l.path : relative) + "\n";
}

bool HoldsNoState(const state::StoreDump& dump) {
  auto stages = dump.tables.find("stages");
  auto envs = dump.tables.find("environments");
  return (stages == dump.tables.end() || stages->second.empty()) &&
         (envs == dump.tables.end() || envs->second.size() <= 1);
}

// The stores of every environment of one side, and the stage locks taken through them
// (declared after the stores: released before the stores close).
struct LockedSide {
  std::vector<std::unique_ptr<state::StateStore>> stores;
  std::vector<state::ScopedStageLock> locks;
  std::vector<std::string> ids;
};

// Locks `stages` of `environment` at `location`; reports and returns false on failure.
bool LockStages(StateSession& session, const ProjectConfig& project, const StateLocation& location,
                const std::string& environment, const std::vector<std::string>& stages,
                std::chrono::milliseconds timeout, LockedSide& side) {
  if (stages.empty()) return true;
  auto store = OpenStoreAt(project, location, environment);
  if (!store.ok()) {
    session.Fail(store.status());
    return false;
  }
  side.stores.push_back(std::move(*store));
  for (const auto& stage : stages) {
    auto lock = state::ScopedStageLock::Acquire(*side.stores.back(), {stage, "state migrate", timeout});
    if (!lock.ok()) {
      session.Fail(lock.status());
      return false;
    }
    side.ids.push_back(lock->id());
    side.locks.push_back(std::move(*lock));
  }
  return true;
}

void RunMigrate(CommandContext& ctx, const MigrateFlags& flags) {
  StateSession session(ctx);
  if (!session.OpenFor(state::kDefaultEnvironment)) return;
  const ProjectConfig& project = session.project();
  auto timeout = session.ParseLockTimeout(flags.lock);
  if (!timeout) return;
  StateLocation source = ProjectStateLocationOf(project);
  StateLocation target = ParseStateLocation(flags.to, project, flags.schema.empty() ? project.state.schema : flags.schema);
  if (SameLocation(source, target)) {
    return session.Error("Nothing to migrate", "The target " + DescribeLocation(target, project.root_dir) +
                                                   " is where the project's state already is.");
  }
  auto target_store = OpenStoreAt(project, target, state::kDefaultEnvironment);
  if (!target_store.ok()) return session.Fail(target_store.status());
  auto before = (*target_store)->DumpRows();
  if (!before.ok()) return session.Fail(before.status());
  if (!HoldsNoState(*before) && !flags.force) {
    return session.Error("The target is not empty",
                         DescribeLocation(target, project.root_dir) + " already holds state (" +
                             std::to_string(SummarizeStages(*before).size()) +
                             " stage(s)). Use -force to replace it with this project's state.");
  }

  // Every stage of every environment locked, on both sides, for the whole copy.
  auto environments = session.store().ListEnvironments();
  if (!environments.ok()) return session.Fail(environments.status());
  auto target_environments = (*target_store)->ListEnvironments();
  if (!target_environments.ok()) return session.Fail(target_environments.status());
  LockedSide source_side;
  LockedSide target_side;
  for (const auto& environment : *environments) {
    auto store = OpenStoreAt(project, source, environment.name);
    if (!store.ok()) return session.Fail(store.status());
    auto stages = (*store)->ListStages();
    if (!stages.ok()) return session.Fail(stages.status());
    std::vector<std::string> names;
    for (const auto& s : *stages) names.push_back(s.name);
    if (!LockStages(session, project, source, environment.name, names, *timeout, source_side)) return;
    bool in_target = false;
    for (const auto& e : *target_environments) in_target = in_target || e.name == environment.name;
    if (in_target && !LockStages(session, project, target, environment.name, names, *timeout, target_side)) return;
  }

  auto dump = session.store().DumpRows();
  if (!dump.ok()) return session.Fail(dump.status());
  if (auto loaded = (*target_store)->LoadRows(*dump, target_side.ids); !loaded.ok()) return session.Fail(loaded);
  auto copied = (*target_store)->DumpRows();
  if (!copied.ok()) return session.Fail(copied.status());
  std::vector<std::string> differences = state::CompareDumps(*dump, *copied);
  auto after = session.store().DumpRows();
  if (!after.ok()) return session.Fail(after.status());
  std::vector<std::string> changed = state::CompareDumps(*dump, *after);
  if (!differences.empty() || !changed.empty()) {
    std::string detail;
    for (const auto& d : differences) detail += "\n  target: " + d;
    for (const auto& d : changed) detail += "\n  source: " + d;
    return session.Error("The copy does not match its source",
                         "After copying to " + DescribeLocation(target, project.root_dir) + ":" + detail +
                             "\nThe source was not changed by the copy; run the migration again with -force.");
  }

  std::ostream& out = *ctx.out;
  auto stages = state::SummarizeStages(*dump);
  out << "Copied the state of project " << project.name << " from " << DescribeLocation(source, project.root_dir)
      << " to " << DescribeLocation(target, project.root_dir) << ":\n";
  out << fmt::format("  {:<24} {:>6} {:>9} {:>7} {:>7} {:>10} {:>11}  {}\n", "STAGE", "SERIAL", "RESOURCES", "OUTPUTS",
                     "HISTORY", "OPERATIONS", "CHANGE SETS", "SHA-256");
  for (const auto& s : stages) {
    out << fmt::format("  {:<24} {:>6} {:>9} {:>7} {:>7} {:>10} {:>11}  {}\n", s.key, s.serial, s.rows.at("resources"),
                       s.rows.at("outputs"), s.rows.at("history"), s.rows.at("operations"), s.rows.at("change_sets"),
                       s.digest.substr(0, 16));
  }
  out << stages.size() << " stage(s) in " << environments->size() << " environment(s), " << dump->Rows()
      << " rows; counts and digests verified on both sides, the source unchanged.\n"
      << "Secrets were copied sealed: the target needs the same key (STRATA_STATE_KEY or state.key_file).\n\n"
      << "Point strata.yaml at the new state (replace its state: block):\n\n"
      << YamlFor(target, project.root_dir);
  if (target.backend == "postgres") {
    out << "\n(Keep the password out of strata.yaml: ~/.pgpass, PGPASSWORD or STRATA_PG_URL supply it.)\n";
  } else if (state::StateEnvironment::System().Getenv("STRATA_PG_URL")) {
    out << "\n(And unset STRATA_PG_URL, which points strata at PostgreSQL when strata.yaml names no backend.)\n";
  }
}

}  // namespace

void AddStateMigrateCommand(CLI::App* parent, CommandContext& ctx) {
  auto flags = std::make_shared<MigrateFlags>();
  auto* cmd = parent->add_subcommand(
      "migrate", "Copy the whole state (every stage, its history and journal) to another store: state migrate -to URL");
  cmd->add_option("--to", flags->to, "postgres://USER@HOST/DB, or sqlite:PATH / PATH")->required()->option_text("URL");
  cmd->add_option("--schema", flags->schema, "The PostgreSQL schema of the target (default: state.schema)");
  cmd->add_flag("--force", flags->force, "Replace the target's state when it holds some");
  flags->lock.AddTo(cmd);
  cmd->callback([flags, &ctx] { RunMigrate(ctx, *flags); });
}

}  // namespace strata::cli
