#pragma once
// Internal to state/postgres: the boundary where libpq failures become StateStatus values.

#include <mutex>

#include <nlohmann/json.hpp>

#include "state/postgres/pg_connection.h"
#include "state/postgres/postgres_store.h"
#include "state/status.h"

namespace strata::state {

//! The status for a PostgreSQL failure on the database `where` (a masked URL and schema).
StateStatus PgErrorStatus(const std::string& where, const pg::PgError& e);

template <class F>
auto PostgresStateStore::Guard(F&& body) -> decltype(body()) {
  using R = decltype(body());
  // One caller at a time: a libpq connection is not to be used by two threads at once, and
  // a transaction's statements must not interleave with another call's. Recursive: some
  // methods call others (BeginChangeSet reads PendingOperations).
  std::lock_guard<std::recursive_mutex> one_at_a_time(mu_);
  try {
    return body();
  } catch (const pg::PgError& e) {
    return R(PgErrorStatus(Where(), e));
  } catch (const nlohmann::json::exception& e) {
    return R(StateStatus::Error(StateCode::Corrupt, "the state database " + Where() + " holds malformed data (" +
                                                        e.what() + ")"));
  } catch (const std::runtime_error& e) {
    return R(StateStatus::Error(StateCode::Io, e.what()));
  }
}

}  // namespace strata::state
