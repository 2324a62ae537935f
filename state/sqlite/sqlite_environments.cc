// SqliteStateStore: environments — the `environments` table, the stage keys of this store's
// environment, listing, creating and deleting environments.

#include <map>

#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"
#include "state/stage_key.h"

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

std::string SqliteStateStore::Key(const std::string& stage) const {
  return StageKey(options_.environment, stage);
}

namespace {

bool EnvironmentExists(sqlite::Database& db, const std::string& name) {
  Statement& st = db.Prepare("SELECT 1 FROM environments WHERE name = ?");
  st.Bind(1, name);
  bool found = st.Step();
  st.Reset();
  return found;
}

}  // namespace

StateStatus SqliteStateStore::RequireEnvironment() {
  const std::string& name = options_.environment;
  if (std::string why = InvalidEnvironmentReason(name); !why.empty()) {
    return StateStatus::Error(StateCode::InvalidArgument, why);
  }
  return Guard([&]() -> StateStatus {
    if (name == kDefaultEnvironment || EnvironmentExists(*db_, name)) return StateStatus::Ok();
    return StateStatus::Error(StateCode::NotFound, "the environment \"" + name + "\" does not exist in " +
                                                       db_->path() + ": create it with `strata env new " + name +
                                                       "`, or see the ones that exist with `strata env list`");
  });
}

StateResult<std::vector<EnvironmentSummary>> SqliteStateStore::ListEnvironments() {
  return Guard([&]() -> StateResult<std::vector<EnvironmentSummary>> {
    Transaction tx(*db_, Transaction::Kind::Read);
    std::map<std::string, EnvironmentSummary> by_name;
    by_name[kDefaultEnvironment].name = kDefaultEnvironment;
    {
      Statement& st = db_->Prepare("SELECT name FROM environments");
      while (st.Step()) by_name[st.Text(0)].name = st.Text(0);
    }
    Statement& st = db_->Prepare(
        "SELECT s.name, (SELECT COUNT(*) FROM resources r WHERE r.stage = s.name) FROM stages s");
    while (st.Step()) {
      auto it = by_name.find(SplitStageKey(st.Text(0)).environment);
      if (it == by_name.end()) continue;  // not reachable: deleting an environment deletes its stages
      ++it->second.stages;
      it->second.resources += st.Int(1);
    }
    tx.Commit();
    std::vector<EnvironmentSummary> out{by_name[kDefaultEnvironment]};
    for (const auto& [name, summary] : by_name) {
      if (name != kDefaultEnvironment) out.push_back(summary);
    }
    return out;
  });
}

StateStatus SqliteStateStore::CreateEnvironment(const std::string& name) {
  if (std::string why = InvalidEnvironmentReason(name); !why.empty()) {
    return StateStatus::Error(StateCode::InvalidArgument, why);
  }
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (name == kDefaultEnvironment || EnvironmentExists(*db_, name)) {
      return StateStatus::Error(StateCode::InvalidArgument, "the environment \"" + name + "\" already exists");
    }
    db_->Prepare("INSERT INTO environments(name, created_at) VALUES(?, ?)").Bind(1, name).Bind(2, env_->NowMillis()).Run();
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus SqliteStateStore::DeleteEnvironment(const std::string& name, bool force) {
  if (StateStatus s = CheckEnvironmentDeletable(name, options_.environment); !s.ok()) return s;
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (!EnvironmentExists(*db_, name)) {
      return StateStatus::Error(StateCode::NotFound, "the environment \"" + name +
                                                         "\" does not exist (see `strata env list`)");
    }
    const std::string prefix = StageKey(name, "");
    auto in_environment = [&](const std::string& key) { return key.compare(0, prefix.size(), prefix) == 0; };
    {
      Statement& st = db_->Prepare("SELECT stage FROM locks ORDER BY stage");
      while (st.Step()) {
        if (!in_environment(st.Text(0))) continue;
        std::string key = st.Text(0);
        st.Reset();
        auto lock = ReadLockByKey(key);
        return StateStatus::Error(StateCode::LockHeld, "cannot delete the environment \"" + name +
                                                           "\" while one of its stages is locked: " +
                                                           LockHeldMessage(*lock, env_->NowMillis()));
      }
    }
    std::vector<std::string> stages;
    std::string held;
    int64_t total = 0;
    {
      Statement& st = db_->Prepare(
          "SELECT s.name, (SELECT COUNT(*) FROM resources r WHERE r.stage = s.name) FROM stages s ORDER BY s.name");
      while (st.Step()) {
        if (!in_environment(st.Text(0))) continue;
        stages.push_back(st.Text(0));
        if (int64_t n = st.Int(1); n > 0) {
          total += n;
          held += std::string(held.empty() ? "" : ", ") + "stage " + SplitStageKey(st.Text(0)).stage + ": " +
                  std::to_string(n);
        }
      }
    }
    if (total > 0 && !force) return EnvironmentStillHolds(name, total, held);
    // Resources, outputs, change sets, operations and history follow their stage (ON DELETE CASCADE).
    for (const auto& key : stages) db_->Prepare("DELETE FROM stages WHERE name = ?").Bind(1, key).Run();
    db_->Prepare("DELETE FROM environments WHERE name = ?").Bind(1, name).Run();
    tx.Commit();
    return StateStatus::Ok();
  });
}

}  // namespace strata::state
