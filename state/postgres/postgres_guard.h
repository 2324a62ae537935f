#pragma once
// Internal to state/postgres: the boundary where libpq failures become StateStatus values.

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

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
  struct Depth {
    int& n;
    explicit Depth(int& d) : n(++d) {}
    ~Depth() { --n; }
  } depth(guard_depth_);
  const auto deadline = std::chrono::steady_clock::now() + options_.retry_timeout;
  std::chrono::milliseconds backoff{100};
  for (;;) {
    try {
      return body();
    } catch (const pg::PgError& e) {
      if (!pg::IsConnectionLoss(e) && !ConnectionBroken()) return R(PgErrorStatus(Where(), e));
      // A nested call's transaction belongs to its caller: the outermost call runs again.
      if (depth.n > 1) throw;
      // Reconnect until the server answers or the deadline passes; then run the call again
      // (its transaction was rolled back with the connection). Once a call has given up,
      // the next ones try once, without waiting: the apply is saving its results locally
      // and its last calls (the unlock) should not wait out the deadline again.
      for (;;) {
        auto now = std::chrono::steady_clock::now();
        bool last = lost_ || options_.retry_timeout.count() <= 0 || now >= deadline;
        if (!last) {
          std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(backoff, deadline - now));
          backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
        }
        try {
          StateStatus back = Reconnect();
          if (!back.ok()) return R(back);
          lost_ = false;
          break;
        } catch (const pg::PgError& again) {
          if (!pg::IsConnectionLoss(again)) return R(PgErrorStatus(Where(), again));
        }
        if (last) {
          lost_ = true;
          return R(LostStatus(e));
        }
      }
    } catch (const nlohmann::json::exception& e) {
      return R(StateStatus::Error(StateCode::Corrupt, "the state database " + Where() + " holds malformed data (" +
                                                          e.what() + ")"));
    } catch (const std::runtime_error& e) {
      return R(StateStatus::Error(StateCode::Io, e.what()));
    }
  }
}

}  // namespace strata::state
