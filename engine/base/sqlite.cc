#include "engine/base/sqlite.h"

#include <sys/stat.h>

#include <cstdio>

#include "engine/base/sqlite_private_file.h"

namespace strata::sqlite {

void ThrowError(sqlite3* db, int rc, const std::string& context) {
  std::string msg = context + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  throw SqliteError(rc, msg);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_,
                              nullptr);
  if (rc != SQLITE_OK) ThrowError(db, rc, "preparing statement");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::Bind(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) ThrowError(db_, rc, "binding");
  return *this;
}

Statement& Statement::Bind(int index, const std::string& value) {
  int rc = sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) ThrowError(db_, rc, "binding");
  return *this;
}

Statement& Statement::BindNull(int index) {
  int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) ThrowError(db_, rc, "binding");
  return *this;
}

bool Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3_reset(stmt_);
  ThrowError(db_, rc, "executing statement");
}

void Statement::Run() {
  while (Step()) {
  }
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::Int(int column) const { return sqlite3_column_int64(stmt_, column); }

std::string Statement::Text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  if (!p) return "";
  return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Statement::IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

namespace {

sqlite3* OpenHandle(const std::string& name, const std::string& path, int flags) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(name.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = "opening " + path + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    throw SqliteError(rc, msg);
  }
  return db;
}

// A "file:" URI for `path` with `query`: some open parameters exist only in URIs.
std::string FileUri(const std::string& path, const std::string& query) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f) {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri + "?" + query;
}

bool WalHasContent(const std::string& path) {
  struct stat st {};
  return ::stat((path + "-wal").c_str(), &st) == 0 && st.st_size > 0;
}

// In WAL mode even a reader needs the -shm file, and creates it when it is missing. In a
// read-only directory after a clean close (which removes -wal and -shm) it cannot; but
// then no writer can exist either (it would have to create the -wal beside the file), so
// the file is read as immutable: without locks or shared memory.
sqlite3* OpenReadOnly(const std::string& path) {
  sqlite3* db = OpenHandle(path, path, SQLITE_OPEN_READONLY);
  int rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) & 0xff;
  if ((rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN) && !WalHasContent(path)) {
    sqlite3_close(db);
    db = OpenHandle(FileUri(path, "immutable=1"), path, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
  }
  return db;
}

}  // namespace

std::unique_ptr<Database> Database::Open(const std::string& path, int busy_timeout_ms, Access access) {
  sqlite3* db = nullptr;
  if (access == Access::ReadOnly) {
    db = OpenReadOnly(path);
  } else {
    if (path != ":memory:") PrepareDatabaseFile(path);
    db = OpenHandle(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  auto database = std::unique_ptr<Database>(new Database(db, path));
  if (access == Access::ReadOnly) database->Exec("PRAGMA query_only=1");
  return database;
}

Database::~Database() {
  cache_.clear();  // finalize statements before closing
  sqlite3_close(db_);
}

void Database::Exec(const std::string& sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw SqliteError(rc, msg);
  }
}

Statement& Database::Prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    it = cache_.emplace(sql, std::make_unique<Statement>(db_, sql)).first;
  } else {
    it->second->Reset();
  }
  return *it->second;
}

int64_t Database::QueryInt(const std::string& sql) {
  Statement& st = Prepare(sql);
  int64_t v = st.Step() ? st.Int(0) : 0;
  st.Reset();
  return v;
}

Transaction::Transaction(Database& db, Kind kind) : db_(db) {
  db_.Exec(kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::Commit() {
  db_.Exec("COMMIT");
  open_ = false;
}

}  // namespace strata::sqlite
