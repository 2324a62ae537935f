// PostgresStateStore: environments — listing, creating and deleting them (stage keys:
// state/stage_key.h).

#include <map>

#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"
#include "state/stage_key.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

namespace {

bool PgEnvironmentExists(pg::Connection& db, const std::string& name) {
  return !db.Query("SELECT 1 FROM environments WHERE name = $1", {name}).empty();
}

}  // namespace

StateStatus PostgresStateStore::RequireEnvironment() {
  const std::string& name = options_.environment;
  if (std::string why = InvalidEnvironmentReason(name); !why.empty()) {
    return StateStatus::Error(StateCode::InvalidArgument, why);
  }
  return Guard([&]() -> StateStatus {
    if (name == kDefaultEnvironment || PgEnvironmentExists(*db_, name)) return StateStatus::Ok();
    return StateStatus::Error(StateCode::NotFound, "the environment \"" + name + "\" does not exist in " + Where() +
                                                       ": create it with `strata env new " + name +
                                                       "`, or see the ones that exist with `strata env list`");
  });
}

StateResult<std::vector<EnvironmentSummary>> PostgresStateStore::ListEnvironments() {
  return Guard([&]() -> StateResult<std::vector<EnvironmentSummary>> {
    Transaction tx(*db_, pg::kSnapshotRead);
    std::map<std::string, EnvironmentSummary> by_name;
    by_name[kDefaultEnvironment].name = kDefaultEnvironment;
    Rows names = db_->Query("SELECT name FROM environments");
    for (int i = 0; i < names.size(); ++i) by_name[names.Text(i, 0)].name = names.Text(i, 0);
    Rows stages = db_->Query("SELECT s.name, (SELECT COUNT(*) FROM resources r WHERE r.stage = s.name) FROM stages s");
    for (int i = 0; i < stages.size(); ++i) {
      auto it = by_name.find(SplitStageKey(stages.Text(i, 0)).environment);
      if (it == by_name.end()) continue;  // not reachable: deleting an environment deletes its stages
      ++it->second.stages;
      it->second.resources += stages.Int(i, 1);
    }
    tx.Commit();
    std::vector<EnvironmentSummary> out{by_name[kDefaultEnvironment]};
    for (const auto& [name, summary] : by_name) {
      if (name != kDefaultEnvironment) out.push_back(summary);
    }
    return out;
  });
}

StateStatus PostgresStateStore::CreateEnvironment(const std::string& name) {
  if (std::string why = InvalidEnvironmentReason(name); !why.empty()) {
    return StateStatus::Error(StateCode::InvalidArgument, why);
  }
  return Guard([&]() -> StateStatus {
    Rows created = db_->Query("INSERT INTO environments(name, created_at) VALUES($1, $2) ON CONFLICT (name) DO NOTHING",
                              {name, env_->NowMillis()});
    if (name == kDefaultEnvironment || created.Affected() == 0) {
      return StateStatus::Error(StateCode::InvalidArgument, "the environment \"" + name + "\" already exists");
    }
    return StateStatus::Ok();
  });
}

StateStatus PostgresStateStore::DeleteEnvironment(const std::string& name, bool force) {
  if (StateStatus s = CheckEnvironmentDeletable(name, options_.environment); !s.ok()) return s;
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    // Row-locked: a concurrent delete of the same environment waits, then finds it gone.
    if (db_->Query("SELECT 1 FROM environments WHERE name = $1 FOR UPDATE", {name}).empty()) {
      return StateStatus::Error(StateCode::NotFound, "the environment \"" + name +
                                                         "\" does not exist (see `strata env list`)");
    }
    const std::string prefix = StageKey(name, "");
    auto in_environment = [&](const std::string& key) { return key.compare(0, prefix.size(), prefix) == 0; };
    Rows locks = db_->Query("SELECT stage FROM locks ORDER BY stage COLLATE \"C\"");
    for (int i = 0; i < locks.size(); ++i) {
      if (!in_environment(locks.Text(i, 0))) continue;
      auto lock = ReadLockByKey(locks.Text(i, 0));
      return StateStatus::Error(StateCode::LockHeld, "cannot delete the environment \"" + name +
                                                         "\" while one of its stages is locked: " +
                                                         LockHeldMessage(*lock, env_->NowMillis()));
    }
    std::vector<std::string> stages;
    std::string held;
    int64_t total = 0;
    Rows rows = db_->Query(
        "SELECT s.name, (SELECT COUNT(*) FROM resources r WHERE r.stage = s.name) FROM stages s "
        "ORDER BY s.name COLLATE \"C\"");
    for (int i = 0; i < rows.size(); ++i) {
      if (!in_environment(rows.Text(i, 0))) continue;
      stages.push_back(rows.Text(i, 0));
      if (int64_t n = rows.Int(i, 1); n > 0) {
        total += n;
        held += std::string(held.empty() ? "" : ", ") + "stage " + SplitStageKey(rows.Text(i, 0)).stage + ": " +
                std::to_string(n);
      }
    }
    if (total > 0 && !force) return EnvironmentStillHolds(name, total, held);
    // Resources, outputs, change sets, operations, history and reads follow their stage
    // (ON DELETE CASCADE).
    for (const auto& key : stages) db_->Query("DELETE FROM stages WHERE name = $1", {key});
    db_->Query("DELETE FROM environments WHERE name = $1", {name});
    tx.Commit();
    return StateStatus::Ok();
  });
}

}  // namespace strata::state
