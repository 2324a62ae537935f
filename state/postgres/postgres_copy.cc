// PostgresStateStore: the whole store's rows, for `state migrate` (state/store_copy.h).

#include <algorithm>

#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

StateResult<StoreDump> PostgresStateStore::DumpRows() {
  return Guard([&]() -> StateResult<StoreDump> {
    StoreDump dump;
    Transaction tx(*db_, pg::kSnapshotRead);
    for (const auto& table : CopiedTables()) {
      auto& out = dump.tables[table.name];
      Rows rows = db_->Query(CopySelectSql(table));
      for (int i = 0; i < rows.size(); ++i) {
        CopiedRow row;
        for (size_t c = 0; c < table.columns.size(); ++c) {
          int column = static_cast<int>(c);
          row.push_back(rows.IsNull(i, column) ? std::nullopt : std::optional<std::string>(rows.Text(i, column)));
        }
        out.push_back(std::move(row));
      }
    }
    tx.Commit();
    SortDump(dump);
    return dump;
  });
}

StateStatus PostgresStateStore::LoadRows(const StoreDump& dump, const std::vector<std::string>& own_locks) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    // Every lock row FOR UPDATE: a stage locked meanwhile cannot write until this commits.
    Rows locks = db_->Query("SELECT stage, id FROM locks ORDER BY stage COLLATE \"C\" FOR UPDATE");
    for (int i = 0; i < locks.size(); ++i) {
      if (std::find(own_locks.begin(), own_locks.end(), locks.Text(i, 1)) != own_locks.end()) continue;
      auto held = ReadLockByKey(locks.Text(i, 0));
      return StateStatus::Error(StateCode::LockHeld, "the target state is in use: " +
                                                         LockHeldMessage(*held, env_->NowMillis()));
    }
    WriteDump(dump, true, [&](const std::string& sql, const CopiedRow& params) {
      db_->Query(sql, std::vector<pg::Param>(params.begin(), params.end()));
    });
    // The identities continue after the copied ids, so that new change sets and operations
    // never reuse one.
    for (const char* table : {"change_sets", "operations"}) {
      db_->Query(std::string("SELECT setval(pg_get_serial_sequence('") + table + "', 'id'), " +
                 "COALESCE((SELECT max(id) FROM " + table + "), 0) + 1, false)");
    }
    tx.Commit();
    return StateStatus::Ok();
  });
}

}  // namespace strata::state
