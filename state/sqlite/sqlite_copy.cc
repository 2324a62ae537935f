// SqliteStateStore: the whole store's rows, for `state migrate` (state/store_copy.h).

#include <algorithm>

#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

StateResult<StoreDump> SqliteStateStore::DumpRows() {
  return Guard([&]() -> StateResult<StoreDump> {
    StoreDump dump;
    Transaction tx(*db_, Transaction::Kind::Read);
    for (const auto& table : CopiedTables()) {
      auto& rows = dump.tables[table.name];
      Statement& st = db_->Prepare(CopySelectSql(table));
      while (st.Step()) {
        CopiedRow row;
        for (size_t c = 0; c < table.columns.size(); ++c) {
          int column = static_cast<int>(c);
          row.push_back(st.IsNull(column) ? std::nullopt : std::optional<std::string>(st.Text(column)));
        }
        rows.push_back(std::move(row));
      }
      st.Reset();
    }
    tx.Commit();
    SortDump(dump);
    return dump;
  });
}

StateStatus SqliteStateStore::LoadRows(const StoreDump& dump, const std::vector<std::string>& own_locks) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    Statement& locks = db_->Prepare("SELECT stage, id FROM locks ORDER BY stage");
    std::optional<std::string> foreign;
    while (locks.Step()) {
      if (std::find(own_locks.begin(), own_locks.end(), locks.Text(1)) == own_locks.end()) foreign = locks.Text(0);
    }
    locks.Reset();
    if (foreign) {
      auto held = ReadLockByKey(*foreign);
      return StateStatus::Error(StateCode::LockHeld, "the target state is in use: " +
                                                         LockHeldMessage(*held, env_->NowMillis()));
    }
    WriteDump(dump, false, [&](const std::string& sql, const CopiedRow& params) {
      Statement& st = db_->Prepare(sql);
      for (size_t i = 0; i < params.size(); ++i) st.Bind(static_cast<int>(i) + 1, params[i]);
      st.Run();
    });
    tx.Commit();
    return StateStatus::Ok();
  });
}

}  // namespace strata::state
