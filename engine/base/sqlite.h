#pragma once
// A small RAII layer over the SQLite C API: the one SQLite wrapper, used by the state store
// (state/sqlite/) and the sandbox's world.
//
// Failures of SQLite itself (I/O, corruption, busy past the timeout) throw SqliteError:
// they end the operation, and each user turns them into its own errors at its public
// boundary (SqliteStateStore into a StateStatus, the sandbox into a 500).

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace strata::sqlite {

class SqliteError : public std::runtime_error {
 public:
  SqliteError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  //! The primary result code (SQLITE_CORRUPT, SQLITE_BUSY, ...).
  int code() const { return code_ & 0xff; }

 private:
  int code_;
};

//! A prepared statement. Bind indexes start at 1, column indexes at 0.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, const std::string& value);
  Statement& Bind(int index, const char* value) { return Bind(index, std::string(value)); }
  Statement& BindNull(int index);
  Statement& Bind(int index, const std::optional<std::string>& value) {
    return value ? Bind(index, *value) : BindNull(index);
  }

  //! Advances: true when a row is available, false when done.
  bool Step();
  //! Steps to completion (for statements without result rows).
  void Run();
  //! Resets for re-execution and clears bindings.
  void Reset();

  int64_t Int(int column) const;
  std::string Text(int column) const;
  bool IsNull(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

//! How a connection uses its file.
enum class Access {
  //! Creates the file if missing; the file is made private first (see sqlite_private_file.h).
  ReadWrite,
  //! Never writes, creates or chmods anything, so a database whose file or directory is
  //! read-only can still be read. Writes through it fail with SQLITE_READONLY.
  ReadOnly,
};

//! One connection.
class Database {
 public:
  //! Opens `path` (":memory:" for a private in-memory database). Throws SqliteError.
  static std::unique_ptr<Database> Open(const std::string& path, int busy_timeout_ms,
                                        Access access = Access::ReadWrite);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* handle() { return db_; }
  const std::string& path() const { return path_; }
  bool in_memory() const { return path_ == ":memory:"; }

  void Exec(const std::string& sql);
  //! A cached prepared statement, reset and ready for binding. Valid until the next Prepare of
  //! the same text returns it again (do not nest two uses of the same SQL).
  Statement& Prepare(const std::string& sql);
  //! The first column of the first row of `sql` as an integer (0 when no row).
  int64_t QueryInt(const std::string& sql);
  int64_t Changes() { return sqlite3_changes64(db_); }

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
  std::map<std::string, std::unique_ptr<Statement>> cache_;
};

//! BEGIN IMMEDIATE (takes the write lock at once, so no deadlock upgrade later) or DEFERRED
//! for reads; rolls back on destruction unless committed.
class Transaction {
 public:
  enum class Kind { Read, Write };
  Transaction(Database& db, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void Commit();

 private:
  Database& db_;
  bool open_ = true;
};

[[noreturn]] void ThrowError(sqlite3* db, int rc, const std::string& context);

}  // namespace strata::sqlite
