#pragma once
// Connections kept for reuse within one process. A command that opens the state several
// times — a pipeline opens a store and an outputs reader per stage, `state migrate` one per
// environment — connects once per store open at the same time, not once per open: a new
// PostgreSQL connection is a server process forked and authenticated (milliseconds on a
// Unix socket, a TLS handshake and several round trips over a network).
//
// A connection is pooled under its connection string, schema and access (the store makes a
// read-only one's session read-only after preparing the schema, and it stays so), only when no transaction is open on it (pg_connection.h's
// Transaction rolls back on every exit path) and it is still connected; an idle one that the
// server dropped meanwhile (a restart, pg_terminate_backend) is noticed by Acquire's probe
// and replaced by a new one.
//
// After fork() the child must not use the parent's connections (their sockets are shared:
// the two processes' messages would interleave) nor close them (that would end the
// parent's sessions): the child's pool sets them aside, untouched, and connects anew.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "state/postgres/pg_connection.h"

namespace strata::state::pg {

class ConnectionPool {
 public:
  //! The process's pool (never destroyed: idle connections close with the process, after
  //! whatever atexit still does with the state).
  static ConnectionPool& Process();

  //! An idle connection for (conninfo, schema, read_only) that answers, else a new one
  //! (Connection::Open). Throws PgError.
  std::unique_ptr<Connection> Acquire(const std::string& conninfo, const std::string& schema, bool read_only);
  //! Keeps `conn` for a later Acquire with the same arguments (up to kMaxIdle of them; closed
  //! beyond, or when it is no longer connected). No transaction may be open on it.
  void Release(const std::string& conninfo, const std::string& schema, bool read_only,
               std::unique_ptr<Connection> conn);

  //! Connections this pool has opened so far (tests and benchmarks count them).
  int64_t opened();
  static constexpr size_t kMaxIdle = 8;

 private:
  static std::string Key(const std::string& conninfo, const std::string& schema, bool read_only);
  //! In a child after fork(): moves the parent's idle connections to inherited_. Under mu_.
  void SetAsideInheritedLocked();
  std::mutex mu_;
  std::map<std::string, std::vector<std::unique_ptr<Connection>>> idle_;
  //! A forked child's copies of its parent's connections: never used, never closed.
  std::vector<std::unique_ptr<Connection>> inherited_;
  int64_t pid_ = 0;
  int64_t opened_ = 0;
};

}  // namespace strata::state::pg
