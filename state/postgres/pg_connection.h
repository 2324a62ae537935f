#pragma once
// A small RAII layer over libpq for the PostgreSQL state store: one connection, statements
// prepared once per connection and run with parameters (values never enter the SQL text),
// results as text, and transactions.
//
// Failures (the server unreachable, a constraint, a lost connection) throw PgError: the store
// turns them into StateStatus values at its public boundary (postgres_guard.h). A PgError's
// message never holds the connection's password: libpq does not print it, and Connection
// scrubs it from every message anyway.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace strata::state::pg {

class PgError : public std::runtime_error {
 public:
  PgError(const std::string& message, std::string sqlstate)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  //! The five-character SQLSTATE ("40001", "08006", ...), empty when libpq gave none
  //! (e.g. the connection could not be made).
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

//! Whether `e` says the connection is gone (the server stopped or restarting, the network
//! cut, the session terminated by pg_terminate_backend): SQLSTATE class 08, or 57P01-57P03.
//! A statement that failed so was not committed, unless it was the COMMIT itself.
bool IsConnectionLoss(const PgError& e);

//! One statement parameter: text, or NULL.
class Param {
 public:
  Param(const std::string& text) : value_(text) {}               // NOLINT: implicit by design
  Param(const char* text) : value_(std::string(text)) {}         // NOLINT
  Param(int64_t number) : value_(std::to_string(number)) {}      // NOLINT
  Param(int number) : value_(std::to_string(number)) {}          // NOLINT
  Param(std::nullopt_t) {}                                        // NOLINT
  Param(const std::optional<std::string>& text) : value_(text) {}  // NOLINT
  const std::optional<std::string>& value() const { return value_; }

 private:
  std::optional<std::string> value_;
};

//! The rows of one statement (all in memory). Row and column indexes start at 0.
class Rows {
 public:
  explicit Rows(pg_result* result);
  ~Rows();
  Rows(Rows&& other) noexcept;
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  Rows& operator=(Rows&&) = delete;

  int size() const;
  bool empty() const { return size() == 0; }
  std::string Text(int row, int column) const;
  int64_t Int(int row, int column) const;
  bool Bool(int row, int column) const;
  bool IsNull(int row, int column) const;
  //! Rows inserted, updated or deleted.
  int64_t Affected() const;

 private:
  pg_result* result_;
};

class Connection {
 public:
  //! Connects with a libpq connection string (a postgres:// URI or key=value pairs; empty:
  //! libpq's PG* variables and defaults; ~/.pgpass supplies a missing password) and sets
  //! the session's search_path to `schema` (a plain identifier). Throws PgError.
  static std::unique_ptr<Connection> Open(const std::string& conninfo, const std::string& schema);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  //! Runs `sql` ($1, $2, ... for the parameters), prepared once per connection.
  Rows Query(const std::string& sql, const std::vector<Param>& params = {});
  //! Runs fixed SQL without parameters (BEGIN, COMMIT, DDL; several statements allowed).
  void Exec(const std::string& sql);
  //! The server process serving this connection (pg_backend_pid()).
  int BackendPid() const;
  //! Whether libpq still holds the connection as good (a pooled one is kept only then).
  bool Connected() const;

 private:
  explicit Connection(pg_conn* conn, std::string password) : conn_(conn), password_(std::move(password)) {}
  [[noreturn]] void Fail(pg_result* result, const std::string& context);
  std::string Scrub(std::string message) const;
  //! libpq's notice processor for this connection (`connection` is the Connection).
  static void LogNotice(void* connection, const char* message);

  pg_conn* conn_;
  std::string password_;
  std::map<std::string, std::string> prepared_;  // SQL text -> statement name
};

//! How a read of several statements sees one committed snapshot.
constexpr const char* kSnapshotRead = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

//! BEGIN ... COMMIT; rolls back on destruction unless committed (never throws then).
class Transaction {
 public:
  explicit Transaction(Connection& conn, const char* begin = "BEGIN");
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void Commit();

 private:
  Connection& conn_;
  bool open_ = true;
};

}  // namespace strata::state::pg
