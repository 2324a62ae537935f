// SqliteStateStore: whole-stage edits (state rm / mv / push / rollback). Each is one write
// transaction that ends in a new serial.

#include "state/state_edits.h"
#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"

#include <tuple>

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

StateResult<int64_t> SqliteStateStore::RemoveResources(const std::string& lock_id, const std::string& stage,
                                                       const std::vector<std::string>& addresses) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    auto doomed = SelectRemovals(ReadResources(stage), addresses, stage);
    if (!doomed.ok()) return doomed.status();
    for (const auto& address : *doomed) {
      db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ?").Bind(1, Key(stage)).Bind(2, address).Run();
    }
    int64_t serial = CommitSerial(stage, "state rm");
    tx.Commit();
    return serial;
  });
}

StateResult<int64_t> SqliteStateStore::MoveResource(const std::string& lock_id, const std::string& stage,
                                                    const std::string& source, const std::string& destination,
                                                    const ConvertMoved& convert) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    auto plan = PlanMove(ReadResources(stage), source, destination, stage, env_->NowMillis(),
                         SealedConversion(convert, options_.keys, *env_, stage));
    if (!plan.ok()) return plan.status();
    for (const auto& address : plan->deleted) {
      db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ?").Bind(1, Key(stage)).Bind(2, address).Run();
    }
    for (const auto& r : plan->rows) {
      if (!ReadResource(stage, r.address, r.deposed)) WriteResource(stage, r);
    }
    int64_t serial = CommitSerial(stage, "state mv " + source + " " + destination);
    tx.Commit();
    return serial;
  });
}

StateResult<int64_t> SqliteStateStore::ReplaceStage(const std::string& lock_id, const StageState& state,
                                                    const ReplaceOptions& options) {
  return Guard([&]() -> StateResult<int64_t> {
    const std::string& stage = state.stage;
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    std::optional<std::string> lineage;
    int64_t serial = 0;
    if (auto header = ReadLineageAndSerial(stage)) {
      lineage = header->first;
      serial = header->second;
    }
    if (StateStatus s = CheckPush(state, lineage, serial, options.force); !s.ok()) return s;
    std::string new_lineage = state.lineage.empty() ? lineage.value_or("") : state.lineage;
    EnsureStage(stage, new_lineage);
    if (!new_lineage.empty()) {
      db_->Prepare("UPDATE stages SET lineage = ? WHERE name = ?").Bind(1, new_lineage).Bind(2, Key(stage)).Run();
    }
    // A pushed state with a higher serial keeps it: the new serial is max(current + 1, pushed).
    if (state.serial - 1 > serial) {
      db_->Prepare("UPDATE stages SET serial = ? WHERE name = ?").Bind(1, state.serial - 1).Bind(2, Key(stage)).Run();
    }
    db_->Prepare("DELETE FROM resources WHERE stage = ?").Bind(1, Key(stage)).Run();
    for (const auto& r : state.resources) WriteResource(stage, Encode(r, std::nullopt));
    for (const auto& r : state.deposed) WriteResource(stage, Encode(r, std::nullopt));
    std::vector<StoredOutput> outputs;
    for (const auto& o : state.outputs) outputs.push_back(EncodeOutput(o, options_.keys, *env_));
    WriteOutputs(stage, outputs);
    int64_t new_serial = CommitSerial(stage, options.operation);
    tx.Commit();
    return new_serial;
  });
}

StateResult<int64_t> SqliteStateStore::Rollback(const std::string& lock_id, const std::string& stage, int64_t serial) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    std::string current_lineage;
    int64_t current_serial = 0;
    if (auto header = ReadLineageAndSerial(stage)) std::tie(current_lineage, current_serial) = *header;
    Statement& st = db_->Prepare("SELECT lineage, snapshot FROM history WHERE stage = ? AND serial = ?");
    st.Bind(1, Key(stage)).Bind(2, serial);
    if (!st.Step()) {
      st.Reset();
      return NoSnapshot(stage, serial);
    }
    std::string lineage = st.Text(0);
    StoredSnapshot snapshot = ParseSnapshot(st.Text(1));
    st.Reset();
    if (StateStatus s = CheckRollback(stage, serial, lineage, current_serial, current_lineage); !s.ok()) return s;
    // Stored rows are copied as they are: sealed secrets stay sealed, no key needed.
    db_->Prepare("DELETE FROM resources WHERE stage = ?").Bind(1, Key(stage)).Run();
    for (const auto& r : snapshot.resources) WriteResource(stage, r);
    WriteOutputs(stage, snapshot.outputs);
    int64_t new_serial = CommitSerial(stage, "rollback to " + std::to_string(serial));
    tx.Commit();
    return new_serial;
  });
}

}  // namespace strata::state
