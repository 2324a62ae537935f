// PostgresStateStore: whole-stage edits (state rm / mv / push / rollback). Each is one
// transaction that ends in a new serial; what they do to the rows is state_edits.h's.

#include <tuple>

#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"
#include "state/state_edits.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

StateResult<int64_t> PostgresStateStore::RemoveResources(const std::string& lock_id, const std::string& stage,
                                                         const std::vector<std::string>& addresses) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    auto doomed = SelectRemovals(ReadResources(stage), addresses, stage);
    if (!doomed.ok()) return doomed.status();
    for (const auto& address : *doomed) {
      db_->Query("DELETE FROM resources WHERE stage = $1 AND address = $2", {Key(stage), address});
    }
    int64_t serial = CommitSerial(stage, "state rm");
    tx.Commit();
    return serial;
  });
}

StateResult<int64_t> PostgresStateStore::MoveResource(const std::string& lock_id, const std::string& stage,
                                                      const std::string& source, const std::string& destination,
                                                    const ConvertMoved& convert) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    auto plan = PlanMove(ReadResources(stage), source, destination, stage, env_->NowMillis(),
                         SealedConversion(convert, options_.keys, *env_, stage));
    if (!plan.ok()) return plan.status();
    for (const auto& address : plan->deleted) {
      db_->Query("DELETE FROM resources WHERE stage = $1 AND address = $2", {Key(stage), address});
    }
    for (const auto& r : plan->rows) {
      if (!ReadResource(stage, r.address, r.deposed)) WriteResource(stage, r);
    }
    int64_t serial = CommitSerial(stage, "state mv " + source + " " + destination);
    tx.Commit();
    return serial;
  });
}

StateResult<int64_t> PostgresStateStore::ReplaceStage(const std::string& lock_id, const StageState& state,
                                                      const ReplaceOptions& options) {
  return Guard([&]() -> StateResult<int64_t> {
    const std::string& stage = state.stage;
    Transaction tx(*db_);
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
    if (!new_lineage.empty()) db_->Query("UPDATE stages SET lineage = $1 WHERE name = $2", {new_lineage, Key(stage)});
    // A pushed state with a higher serial keeps it: the new serial is max(current + 1, pushed).
    if (state.serial - 1 > serial) {
      db_->Query("UPDATE stages SET serial = $1 WHERE name = $2", {state.serial - 1, Key(stage)});
    }
    db_->Query("DELETE FROM resources WHERE stage = $1", {Key(stage)});
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

StateResult<int64_t> PostgresStateStore::Rollback(const std::string& lock_id, const std::string& stage, int64_t serial) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    std::string current_lineage;
    int64_t current_serial = 0;
    if (auto header = ReadLineageAndSerial(stage)) std::tie(current_lineage, current_serial) = *header;
    Rows rows = db_->Query("SELECT lineage, snapshot FROM history WHERE stage = $1 AND serial = $2", {Key(stage), serial});
    if (rows.empty()) return NoSnapshot(stage, serial);
    if (StateStatus s = CheckRollback(stage, serial, rows.Text(0, 0), current_serial, current_lineage); !s.ok()) return s;
    StoredSnapshot snapshot = ParseSnapshot(rows.Text(0, 1));
    // Stored rows are copied as they are: sealed secrets stay sealed, no key needed.
    db_->Query("DELETE FROM resources WHERE stage = $1", {Key(stage)});
    for (const auto& r : snapshot.resources) WriteResource(stage, r);
    WriteOutputs(stage, snapshot.outputs);
    int64_t new_serial = CommitSerial(stage, "rollback to " + std::to_string(serial));
    tx.Commit();
    return new_serial;
  });
}

}  // namespace strata::state
