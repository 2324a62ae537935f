// PostgresStateStore: stage locks — a session-level advisory lock on a connection of its own,
// and a row for the messages (postgres_store.h says why both).

#include "state/postgres/pg_pool.h"
#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"
#include "state/stage_key.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

namespace {

// The row's columns, then whether a session holds the row's advisory lock (pg_locks shows a
// bigint key as classid = high 32 bits, objid = low 32 bits, objsubid = 1).
constexpr char kPgLockSelect[] =
    "SELECT k.id, k.stage, k.username, k.host, k.pid, k.process_start, k.operation, k.since, "
    "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid::bigint = ((k.lock_key >> 32) & 4294967295) AND l.objid::bigint = (k.lock_key & 4294967295)) "
    "FROM locks k ";

LockInfo PgLockFromRow(const Rows& rows, int i) {
  LockInfo l;
  l.id = rows.Text(i, 0);
  StageKeyParts key = SplitStageKey(rows.Text(i, 1));
  l.environment = key.environment;
  l.stage = key.stage;
  l.user = rows.Text(i, 2);
  l.host = rows.Text(i, 3);
  l.pid = rows.Int(i, 4);
  l.process_start = rows.Int(i, 5);
  l.operation = rows.Text(i, 6);
  l.since = rows.Int(i, 7);
  // Its session is gone (killed, crashed, connection lost): the lock went with it.
  l.stale = !rows.Bool(i, 8);
  return l;
}

}  // namespace

pg::Connection& PostgresStateStore::LockConnection() {
  if (!lock_db_) lock_db_ = pg::ConnectionPool::Process().Acquire(options_.url, options_.schema, false);
  return *lock_db_;
}

StateStatus PostgresStateStore::Reconnect() {
  std::unique_ptr<pg::Connection> db = pg::Connection::Open(options_.url, options_.schema);
  if (options_.access == StoreAccess::ReadOnly) db->Exec("SET default_transaction_read_only = on");
  db_ = std::move(db);
  if (held_.empty()) return StateStatus::Ok();
  // The lock connection may have survived (only db_ was cut): its advisory locks stand.
  bool alive = false;
  if (lock_db_) {
    try {
      lock_db_->Exec("SELECT 1");
      alive = true;
    } catch (const pg::PgError&) {
      // Whatever the error says (the first use of a connection the server dropped may
      // carry no SQLSTATE), a trivial query that fails means a dead connection.
    }
  }
  if (!alive) lock_db_ = pg::Connection::Open(options_.url, options_.schema);
  for (auto it = held_.begin(); it != held_.end();) {
    const auto& [key, lock_id] = *it;
    StageKeyParts stage = SplitStageKey(key);
    if (!alive && !lock_db_->Query("SELECT pg_try_advisory_lock($1)", {LockKey(key)}).Bool(0, 0)) {
      std::optional<LockInfo> holder = ReadLockByKey(key);
      held_.erase(it);
      return StateStatus::Error(
          StateCode::LockHeld,
          "the connection to the state database " + Where() + " was lost, and while it was, another session took " +
              StageLabel(stage.environment, stage.stage) + (holder ? ": " + LockDescription(*holder, env_->NowMillis()) : "") +
              ". Nothing more is written by this run.");
    }
    Rows row = db_->Query("SELECT id FROM locks WHERE stage = $1", {key});
    if (row.empty() || row.Text(0, 0) != lock_id) {
      std::optional<LockInfo> holder = row.empty() ? std::nullopt : ReadLockByKey(key);
      if (!alive) lock_db_->Query("SELECT pg_advisory_unlock($1)", {LockKey(key)});
      std::string name = stage.stage;
      std::string environment = stage.environment;
      held_.erase(it);
      return LockNotHeld(environment, name, lock_id, holder);
    }
    ++it;
  }
  return StateStatus::Ok();
}

bool PostgresStateStore::ConnectionBroken() {
  for (pg::Connection* conn : {db_.get(), lock_db_.get()}) {
    if (!conn) continue;
    try {
      // Idle here: the failed call's transaction was rolled back as its stack unwound.
      conn->Exec("SELECT 1");
    } catch (const pg::PgError&) {
      return true;
    }
  }
  return false;
}

StateStatus PostgresStateStore::LostStatus(const pg::PgError& e) const {
  std::string what = e.what();
  // libpq's message is several tab-indented lines: one line here.
  std::string line;
  for (char c : what) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c != ' ' || (!line.empty() && line.back() != ' ')) line += c;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  what = line;
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(options_.retry_timeout).count();
  return StateStatus::Error(StateCode::Unreachable,
                            "lost the connection to the state database " + Where() + " (" + what + ")" +
                                (seconds > 0 ? " and it did not come back within " + std::to_string(seconds) +
                                                   " s (state.retry_timeout)"
                                             : ""));
}

std::optional<LockInfo> PostgresStateStore::ReadLockByKey(const std::string& key) {
  Rows rows = db_->Query(std::string(kPgLockSelect) + "WHERE k.stage = $1", {key});
  if (rows.empty()) return std::nullopt;
  return PgLockFromRow(rows, 0);
}

StateResult<LockInfo> PostgresStateStore::TryLock(const LockRequest& request) {
  return Guard([&]() -> StateResult<LockInfo> {
    if (request.stage.empty()) return StateStatus::Error(StateCode::InvalidArgument, "a lock needs a stage name");
    std::string key = Key(request.stage);
    // An advisory lock is re-entrant within its session, so this store's own advisory lock
    // is not asked for again: its row says whether it is still held, or was force-unlocked
    // (then this store, the session that holds it, takes the stage anew).
    bool mine = held_.count(key) > 0;
    if (mine) {
      if (auto held = ReadLockByKey(key)) return StateStatus::Error(StateCode::LockHeld, LockHeldMessage(*held, env_->NowMillis()));
    } else if (!LockConnection().Query("SELECT pg_try_advisory_lock($1)", {LockKey(key)}).Bool(0, 0)) {
      if (auto held = ReadLockByKey(key)) return StateStatus::Error(StateCode::LockHeld, LockHeldMessage(*held, env_->NowMillis()));
      // No row: a session whose lock was force-unlocked is still connected (or a holder is
      // between taking the lock and writing its row).
      Rows holder = db_->Query(
          "SELECT a.pid, coalesce(a.client_addr::text, 'local'), coalesce(a.application_name, '') FROM pg_locks l "
          "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
          "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
          "AND l.classid::bigint = (($1::bigint >> 32) & 4294967295) AND l.objid::bigint = ($1::bigint & 4294967295)",
          {LockKey(key)});
      std::string session = holder.empty() ? "another session"
                                            : "the database session of server pid " + holder.Text(0, 0) + " (client " +
                                                  holder.Text(0, 1) + ")";
      return StateStatus::Error(
          StateCode::LockHeld,
          StageLabel(options_.environment, request.stage) + " is locked by " + session +
              ", whose lock record was force-unlocked or is being written; the lock is freed when that session "
              "ends. Wait (-lock-timeout=DURATION waits), stop that strata process, or have an administrator end "
              "the session (SELECT pg_terminate_backend(PID)).");
    }
    try {
      Transaction tx(*db_);
      std::string took_over;
      if (auto left = ReadLockByKey(key)) {
        // We hold the advisory lock, so the row's session is gone (killed, crashed, lost).
        took_over = LockDescription(*left, env_->NowMillis());
        db_->Query("DELETE FROM locks WHERE stage = $1", {key});
      }
      LockInfo lock;
      lock.took_over = took_over;
      lock.id = NewUuid(*env_);
      lock.stage = request.stage;
      lock.environment = options_.environment;
      lock.user = env_->UserName();
      lock.host = env_->Hostname();
      lock.pid = env_->Pid();
      lock.process_start = env_->ProcessStartTime(lock.pid);
      lock.operation = request.operation;
      lock.since = env_->NowMillis();
      db_->Query(
          "INSERT INTO locks(id, stage, username, host, pid, process_start, operation, since, lock_key) "
          "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9)",
          {lock.id, key, lock.user, lock.host, lock.pid, lock.process_start, lock.operation, lock.since, LockKey(key)});
      tx.Commit();
      held_[key] = lock.id;
      return lock;
    } catch (...) {
      if (!mine) LockConnection().Query("SELECT pg_advisory_unlock($1)", {LockKey(key)});
      throw;
    }
  });
}

StateStatus PostgresStateStore::Unlock(const std::string& stage, const std::string& lock_id) {
  return Guard([&]() -> StateStatus {
    std::string key = Key(stage);
    Rows deleted = db_->Query("DELETE FROM locks WHERE stage = $1 AND id = $2", {key, lock_id});
    if (auto it = held_.find(key); it != held_.end() && it->second == lock_id) {
      held_.erase(it);
      LockConnection().Query("SELECT pg_advisory_unlock($1)", {LockKey(key)});
    }
    if (deleted.Affected() == 0) {
      return StateStatus::Error(StateCode::NotFound, "the lock " + lock_id + " on " +
                                                         StageLabel(options_.environment, stage) +
                                                         " is not held (was it force-unlocked?)");
    }
    return StateStatus::Ok();
  });
}

StateResult<LockInfo> PostgresStateStore::ForceUnlock(const std::string& lock_id) {
  return Guard([&]() -> StateResult<LockInfo> {
    Transaction tx(*db_);
    Rows rows = db_->Query(std::string(kPgLockSelect) + "WHERE k.id = $1", {lock_id});
    if (rows.empty()) {
      std::vector<LockInfo> held;
      Rows all = db_->Query(std::string(kPgLockSelect) + "ORDER BY k.stage COLLATE \"C\"");
      for (int i = 0; i < all.size(); ++i) held.push_back(PgLockFromRow(all, i));
      return NoSuchLock(lock_id, held);
    }
    LockInfo lock = PgLockFromRow(rows, 0);
    if (!lock.stale) {
      lock.still_held = "its holder's database session is still connected, so the stage stays locked until that "
                        "session ends (its writes are refused from now on). Stop that strata process, or have an "
                        "administrator end the session (SELECT pg_terminate_backend(PID); the next refusal names "
                        "the PID)";
    }
    // Only the row: the holder's session keeps its advisory lock (nobody else gets in while
    // it lives), but its writes now fail their lock check.
    db_->Query("DELETE FROM locks WHERE id = $1", {lock_id});
    tx.Commit();
    return lock;
  });
}

StateResult<std::optional<LockInfo>> PostgresStateStore::CurrentLock(const std::string& stage) {
  return Guard([&]() -> StateResult<std::optional<LockInfo>> { return ReadLockByKey(Key(stage)); });
}

std::function<void()> PostgresStateStore::EmergencyUnlocker(const std::string& stage, const std::string& lock_id) {
  // The advisory lock ends with this process's connections; the row is removed here so that
  // the next holder's message does not report a take-over.
  return [url = options_.url, schema = options_.schema, key = Key(stage), lock_id]() {
    try {
      auto conn = pg::Connection::Open(url, schema);
      conn->Query("DELETE FROM locks WHERE stage = $1 AND id = $2", {key, lock_id});
    } catch (...) {
      // Best effort: the row then shows as stale and is taken over.
    }
  };
}

StateStatus PostgresStateStore::RequireLock(const std::string& stage, const std::string& lock_id) {
  Rows rows = db_->Query(kPgLockRowForUpdate, {Key(stage)});
  return LockHeldBy(stage, lock_id, rows.empty() ? std::nullopt : std::optional<std::string>(rows.Text(0, 0)));
}

StateStatus PostgresStateStore::LockHeldBy(const std::string& stage, const std::string& lock_id,
                                           const std::optional<std::string>& held) {
  if (held && *held == lock_id) return StateStatus::Ok();
  return LockNotHeld(options_.environment, stage, lock_id, held ? ReadLockByKey(Key(stage)) : std::nullopt);
}

}  // namespace strata::state
