#include "state/postgres/pg_connection.h"

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

void Connection::Fail(pg_result* result, const std::string& context) {
  std::string message = result ? Pq().result_error_message(result) : "";
  if (message.empty()) message = Pq().error_message(conn_);
  const char* state = result ? Pq().result_error_field(result, PG_DIAG_SQLSTATE) : nullptr;
  // A connection that broke is a lost connection whatever the result says (after a server's
  // immediate shutdown, the result may carry the SQLSTATE of its last notice).
  std::string sqlstate = Pq().status(conn_) == CONNECTION_BAD ? "08006" : (state ? state : "");
  if (result) Pq().clear(result);
  throw PgError(Scrub(context.empty() ? message : context + ": " + message), sqlstate);
}

Rows Connection::Query(const std::string& sql, const std::vector<Param>& params) {
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    std::string name = "strata_" + std::to_string(prepared_.size() + 1);
    PGresult* prepared = Pq().prepare(conn_, name.c_str(), sql.c_str(), static_cast<int>(params.size()), nullptr);
    if (!prepared || Pq().result_status(prepared) != PGRES_COMMAND_OK) Fail(prepared, "");
    Pq().clear(prepared);
    it = prepared_.emplace(sql, name).first;
  }
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Param& p : params) values.push_back(p.value() ? p.value()->c_str() : nullptr);
  PGresult* result = Pq().exec_prepared(conn_, it->second.c_str(), static_cast<int>(values.size()), values.data(),
                                    nullptr, nullptr, 0);
  ExecStatusType status = result ? Pq().result_status(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) Fail(result, "");
  return Rows(result);
}

void Connection::Exec(const std::string& sql) {
  PGresult* result = Pq().exec(conn_, sql.c_str());
  ExecStatusType status = result ? Pq().result_status(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) Fail(result, "");
  Pq().clear(result);
}

bool Connection::Connected() const { return Pq().status(conn_) == CONNECTION_OK; }

int Connection::BackendPid() const { return Pq().backend_pid(conn_); }

// --- Transaction --------------------------------------------------------------------------

Transaction::Transaction(Connection& conn, const char* begin) : conn_(conn) { conn_.Exec(begin); }

Transaction::~Transaction() {
  if (!open_) return;
  try {
    conn_.Exec("ROLLBACK");
  } catch (...) {
    // The connection is gone: the server rolled the transaction back itself.
  }
}

void Transaction::Commit() {
  open_ = false;
  conn_.Exec("COMMIT");
}

}  // namespace strata::state::pg
