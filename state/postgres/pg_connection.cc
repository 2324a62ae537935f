#include "state/postgres/pg_connection.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>

#include "state/postgres/conninfo.h"
#include "state/postgres/pg_library.h"

namespace strata::state::pg {
namespace {

// Loaded by the first Connection::Open (every Rows and Connection comes after one).
const PqLibrary& Pq() { return *LoadLibpq(nullptr); }

}  // namespace

bool IsConnectionLoss(const PgError& e) {
  const std::string& state = e.sqlstate();
  return state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03";
}

// --- Rows ---------------------------------------------------------------------------------

Rows::Rows(pg_result* result) : result_(result) {}
Rows::~Rows() {
  if (result_) Pq().clear(result_);
}
Rows::Rows(Rows&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }

int Rows::size() const { return Pq().ntuples(result_); }
std::string Rows::Text(int row, int column) const {
  return std::string(Pq().getvalue(result_, row, column), Pq().getlength(result_, row, column));
}
int64_t Rows::Int(int row, int column) const {
  if (IsNull(row, column)) return 0;
  return std::strtoll(Pq().getvalue(result_, row, column), nullptr, 10);
}
bool Rows::Bool(int row, int column) const { return Text(row, column) == "t"; }
bool Rows::IsNull(int row, int column) const { return Pq().getisnull(result_, row, column) != 0; }
int64_t Rows::Affected() const {
  const char* n = Pq().cmd_tuples(result_);
  return n && *n ? std::strtoll(n, nullptr, 10) : 0;
}

// --- Connection ---------------------------------------------------------------------------

std::unique_ptr<Connection> Connection::Open(const std::string& conninfo, const std::string& schema) {
  std::string unavailable;
  if (!LoadLibpq(&unavailable)) throw PgError(unavailable, "");
  // The password this connection may use, to scrub it from messages: from the string, or
  // from PGPASSWORD (a ~/.pgpass one is known only once connected).
  std::string password = ConninfoPassword(conninfo);
  if (password.empty()) {
    if (const char* env = std::getenv("PGPASSWORD")) password = env;
  }
  // libpq expands a connection string given as dbname; the application name shows the
  // holder in pg_stat_activity.
  const char* keys[] = {"dbname", "application_name", "connect_timeout", nullptr};
  const char* values[] = {conninfo.c_str(), "strata", "10", nullptr};
  PGconn* conn = Pq().connectdb_params(keys, values, /*expand_dbname=*/1);
  if (!conn) throw PgError("out of memory connecting to PostgreSQL", "");
  if (Pq().status(conn) != CONNECTION_OK) {
    std::string message = Pq().error_message(conn);
    Pq().finish(conn);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    if (!password.empty()) message = ScrubSecret(message, password);
    throw PgError(message, "08001");
  }
  if (const char* used = Pq().pass(conn); used && *used) password = used;
  std::unique_ptr<Connection> connection(new Connection(conn, password));
  Pq().set_notice_processor(conn, &Connection::LogNotice, connection.get());
  connection->Query("SELECT set_config('search_path', $1, false)", {schema});
  // Only the server's warnings and errors reach LogNotice ("schema ... already exists,
  // skipping" does not).
  connection->Exec("SET client_min_messages TO warning");
  return connection;
}

Connection::~Connection() { Pq().finish(conn_); }

// libpq's default notice processor prints on stderr what the server says outside a
// statement's result — among them "WARNING:  terminating connection due to immediate
// shutdown" when the server goes down, which the apply already reports as a lost
// connection. Notices go to the file STRATA_LOG names (appended, scrubbed), else nowhere.
void Connection::LogNotice(void* connection, const char* message) {
  const char* path = std::getenv("STRATA_LOG");
  if (!path || !*path || !message) return;
  std::string line = "postgres notice: " + static_cast<const Connection*>(connection)->Scrub(message) + "\n";
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::ofstream(path, std::ios::app) << line;
}

std::string Connection::Scrub(std::string message) const {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return password_.empty() ? message : ScrubSecret(message, password_);
}

PgError Connection::ErrorOf(pg_result* result, const std::string& context) {
  std::string message = result ? Pq().result_error_message(result) : "";
  if (message.empty()) message = Pq().error_message(conn_);
  const char* state = result ? Pq().result_error_field(result, PG_DIAG_SQLSTATE) : nullptr;
  // A connection that broke is a lost connection whatever the result says (after a server's
  // immediate shutdown, the result may carry the SQLSTATE of its last notice).
  std::string sqlstate = Pq().status(conn_) == CONNECTION_BAD ? "08006" : (state ? state : "");
  if (result) Pq().clear(result);
  return PgError(Scrub(context.empty() ? message : context + ": " + message), sqlstate);
}

void Connection::Fail(pg_result* result, const std::string& context) { throw ErrorOf(result, context); }

const std::string& Connection::Prepared(const std::string& sql, int params) {
  auto it = prepared_.find(sql);
  if (it != prepared_.end()) return it->second;
  std::string name = "strata_" + std::to_string(++statements_);
  if (pipelined_) {
    if (!Pq().send_prepare(conn_, name.c_str(), sql.c_str(), params, nullptr)) Fail(nullptr, "");
    queued_.push_back({nullptr, sql});
  } else {
    PGresult* prepared = Pq().prepare(conn_, name.c_str(), sql.c_str(), params, nullptr);
    if (!prepared || Pq().result_status(prepared) != PGRES_COMMAND_OK) Fail(prepared, "");
    Pq().clear(prepared);
  }
  return prepared_.emplace(sql, name).first->second;
}

Rows Connection::Query(const std::string& sql, const std::vector<Param>& params) {
  if (pipelined_) {
    // The statement goes last, with those queued before it: its rows are the last read.
    Queue(sql, &params, nullptr);
    SyncPipeline();
    Rows rows(std::move(*last_rows_));
    last_rows_.reset();
    return rows;
  }
  const std::string& name = Prepared(sql, static_cast<int>(params.size()));
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Param& p : params) values.push_back(p.value() ? p.value()->c_str() : nullptr);
  PGresult* result =
      Pq().exec_prepared(conn_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0);
  ExecStatusType status = result ? Pq().result_status(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) Fail(result, "");
  return Rows(result);
}

void Connection::Exec(const std::string& sql) {
  if (pipelined_) {
    Queue(sql, nullptr, nullptr);
    SyncPipeline();
    last_rows_.reset();
    return;
  }
  PGresult* result = Pq().exec(conn_, sql.c_str());
  ExecStatusType status = result ? Pq().result_status(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) Fail(result, "");
  Pq().clear(result);
}

void Connection::Send(const std::string& sql, const std::vector<Param>& params,
                      std::function<void(const Rows&)> on_rows) {
  if (pipelined_) return Queue(sql, &params, std::move(on_rows));
  Rows rows = Query(sql, params);
  if (on_rows) on_rows(rows);
}

void Connection::Send(const std::string& sql) {
  if (pipelined_) return Queue(sql, nullptr, nullptr);
  Exec(sql);
}

void Connection::Flush() {
  if (!pipelined_ || queued_.empty()) return;
  SyncPipeline();
  last_rows_.reset();
}

void Connection::Queue(const std::string& sql, const std::vector<Param>* params,
                       std::function<void(const Rows&)> on_rows) {
  int sent = 0;
  if (params) {
    const std::string& name = Prepared(sql, static_cast<int>(params->size()));
    std::vector<const char*> values;
    values.reserve(params->size());
    for (const Param& p : *params) values.push_back(p.value() ? p.value()->c_str() : nullptr);
    // libpq copies the values into its output buffer before returning.
    sent = Pq().send_query_prepared(conn_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr,
                                    nullptr, 0);
  } else {
    sent = Pq().send_query_params(conn_, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0);
  }
  if (!sent) Fail(nullptr, "");
  queued_.push_back({std::move(on_rows), ""});
}

void Connection::SyncPipeline() {
  std::vector<Queued> queued = std::move(queued_);
  queued_.clear();
  last_rows_.reset();
#ifdef LIBPQ_HAS_PIPELINING
  if (!Pq().pipeline_sync(conn_)) Fail(nullptr, "");
  // Every result is read, in order, before the first failure is thrown: the connection is
  // then ready for the next statement (the ROLLBACK).
  std::optional<PgError> first;
  for (Queued& q : queued) {
    PGresult* result = Pq().get_result(conn_);
    if (!result) throw first ? *first : ErrorOf(nullptr, "");  // the connection broke
    ExecStatusType status = Pq().result_status(result);
    bool ran = status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
    if (!ran && !q.prepared_sql.empty()) prepared_.erase(q.prepared_sql);  // prepare again next time
    if (ran) {
      last_rows_.emplace(result);
      if (q.on_rows) q.on_rows(*last_rows_);
    } else if (status == PGRES_PIPELINE_ABORTED) {
      Pq().clear(result);
    } else if (!first) {
      first = ErrorOf(result, "");
    } else {
      Pq().clear(result);
    }
    // A statement's results end with a null.
    while (PGresult* extra = Pq().get_result(conn_)) Pq().clear(extra);
    if (Pq().status(conn_) == CONNECTION_BAD) throw first ? *first : ErrorOf(nullptr, "");
  }
  PGresult* sync = Pq().get_result(conn_);
  bool synced = sync && Pq().result_status(sync) == PGRES_PIPELINE_SYNC;
  if (sync) Pq().clear(sync);
  if (first) throw *first;
  if (!synced) Fail(nullptr, "");
#else
  (void)queued;
#endif
}

namespace {
std::atomic<bool> pg_pipeline_mode_allowed{true};
}  // namespace

void Connection::AllowPipelineMode(bool allow) { pg_pipeline_mode_allowed = allow; }

Connection::Pipeline::Pipeline(Connection& conn) : conn_(conn) {
#ifdef LIBPQ_HAS_PIPELINING
  if (!pg_pipeline_mode_allowed || !Pq().enter_pipeline_mode || conn_.pipelined_) return;
  active_ = Pq().enter_pipeline_mode(conn_.conn_) == 1;
  conn_.pipelined_ = active_;
#endif
}

Connection::Pipeline::~Pipeline() {
  if (!active_) return;
  try {
    if (!conn_.queued_.empty()) conn_.SyncPipeline();
  } catch (const PgError&) {
    // Read and dropped: the transaction they were part of is rolled back.
  }
  conn_.last_rows_.reset();
  conn_.pipelined_ = false;
#ifdef LIBPQ_HAS_PIPELINING
  // Fails only on a broken connection, which is not used again.
  Pq().exit_pipeline_mode(conn_.conn_);
#endif
}

bool Connection::InTransaction() const {
  PGTransactionStatusType t = Pq().transaction_status(conn_);
  return t == PQTRANS_INTRANS || t == PQTRANS_INERROR;
}

bool Connection::Connected() const { return Pq().status(conn_) == CONNECTION_OK; }

int Connection::BackendPid() const { return Pq().backend_pid(conn_); }

// --- Transaction --------------------------------------------------------------------------

Transaction::Transaction(Connection& conn, const char* begin) : conn_(conn) { conn_.Send(begin); }

Transaction::~Transaction() {
  if (!open_) return;
  try {
    conn_.Exec("ROLLBACK");
  } catch (...) {
    // The connection is gone: the server rolled the transaction back itself.
  }
}

void Transaction::Commit() {
  try {
    conn_.Exec("COMMIT");
    open_ = false;
  } catch (const PgError&) {
    // A COMMIT that ran ended the transaction; one that a failed statement before it in a
    // pipeline kept from running did not, and the destructor rolls it back.
    open_ = conn_.InTransaction();
    throw;
  }
}

}  // namespace strata::state::pg
