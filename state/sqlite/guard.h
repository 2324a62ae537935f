#pragma once
// Internal to state/sqlite: the boundary where SQLite exceptions become StateStatus values.

#include <nlohmann/json.hpp>

#include "engine/base/sqlite.h"
#include "state/sqlite/sqlite_store.h"
#include "state/status.h"

namespace strata::state {

//! The status for an SQLite failure on the database at `path`.
StateStatus SqliteErrorStatus(const std::string& path, int busy_timeout_ms, const sqlite::SqliteError& e);

template <class F>
auto SqliteStateStore::Guard(F&& body) -> decltype(body()) {
  using R = decltype(body());
  try {
    return body();
  } catch (const sqlite::SqliteError& e) {
    return R(SqliteErrorStatus(db_->path(), options_.busy_timeout_ms, e));
  } catch (const nlohmann::json::exception& e) {
    return R(StateStatus::Error(StateCode::Corrupt, "the state database " + db_->path() +
                                                        " holds malformed data (" + e.what() + ")"));
  } catch (const std::runtime_error& e) {
    return R(StateStatus::Error(StateCode::Io, e.what()));
  }
}

}  // namespace strata::state
