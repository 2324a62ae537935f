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
#include <functional>
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
  //! Runs fixed SQL without parameters (BEGIN, COMMIT, DDL; several statements allowed,
  //! but one only inside a Pipeline).
  void Exec(const std::string& sql);

  //! Sends a statement whose result is not needed now: inside a Pipeline it is queued and
  //! goes to the server with the next Query or Exec, in the same round trip, which then
  //! throws the first failure of the statements it carried (later ones are not run); outside
  //! one it runs at once. `on_rows`, when given, sees the statement's rows once it has run
  //! (INSERT ... RETURNING).
  void Send(const std::string& sql, const std::vector<Param>& params,
            std::function<void(const Rows&)> on_rows = nullptr);
  //! Send for fixed SQL without parameters (one statement: BEGIN, SAVEPOINT, ...).
  void Send(const std::string& sql);
  //! Runs what Send queued and waits for it (its callbacks run; its first failure throws).
  //! Nothing to do outside a Pipeline, where Send ran at once.
  void Flush();

  //! libpq's pipeline mode for a scope (libpq >= 14; otherwise nothing changes and every
  //! statement waits for its answer): statements sent with Send do not wait for the server,
  //! so a transaction of many writes costs one round trip per read instead of one per
  //! statement. Results come back in order, so the meaning of a sequence of statements is
  //! unchanged. Leaving the scope ends the mode (results not yet read are read and dropped).
  class Pipeline {
   public:
    explicit Pipeline(Connection& conn);
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

   private:
    Connection& conn_;
    bool active_ = false;
  };

  //! For tests: whether Pipeline may use pipeline mode (default true; false runs the path of
  //! a libpq without it).
  static void AllowPipelineMode(bool allow);
  //! The server process serving this connection (pg_backend_pid()).
  int BackendPid() const;
  //! Whether a transaction is open on the connection (idle in it, or failed in it).
  bool InTransaction() const;
  //! Whether libpq still holds the connection as good (a pooled one is kept only then).
  bool Connected() const;

 private:
  explicit Connection(pg_conn* conn, std::string password) : conn_(conn), password_(std::move(password)) {}
  [[noreturn]] void Fail(pg_result* result, const std::string& context);
  PgError ErrorOf(pg_result* result, const std::string& context);
  std::string Scrub(std::string message) const;
  //! libpq's notice processor for this connection (`connection` is the Connection).
  static void LogNotice(void* connection, const char* message);
  // The statement name of `sql`, prepared once per connection (in a pipeline, the prepare
  // is queued with the statement).
  const std::string& Prepared(const std::string& sql, int params);
  // Pipeline mode: queue one statement; sync and read every queued result in order,
  // throwing the first failure after all are read.
  void Queue(const std::string& sql, const std::vector<Param>* params, std::function<void(const Rows&)> on_rows);
  void SyncPipeline();

  struct Queued {
    std::function<void(const Rows&)> on_rows;
    std::string prepared_sql;  // a queued prepare: forgotten if it did not run
  };

  pg_conn* conn_;
  std::string password_;
  std::map<std::string, std::string> prepared_;  // SQL text -> statement name
  int statements_ = 0;  // names given so far
  bool pipelined_ = false;
  std::vector<Queued> queued_;
  std::optional<Rows> last_rows_;  // the last statement's rows, read by SyncPipeline
};

//! How a read of several statements sees one committed snapshot.
constexpr const char* kSnapshotRead = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

//! BEGIN ... COMMIT; rolls back on destruction unless committed (never throws then). Inside
//! a Pipeline the BEGIN is queued (it goes with the first read) and Commit waits for every
//! statement sent before it.
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
