// SqliteStateStore: stage locks.

#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"
#include "state/stage_key.h"

namespace strata::state {

using sqlite::Database;
using sqlite::Statement;
using sqlite::Transaction;

namespace {

constexpr char kLockColumns[] = "id, stage, user, host, pid, process_start, operation, since";

LockInfo LockFromRow(const Statement& st) {
  LockInfo l;
  l.id = st.Text(0);
  StageKeyParts key = SplitStageKey(st.Text(1));
  l.environment = key.environment;
  l.stage = key.stage;
  l.user = st.Text(2);
  l.host = st.Text(3);
  l.pid = st.Int(4);
  l.process_start = st.Int(5);
  l.operation = st.Text(6);
  l.since = st.Int(7);
  return l;
}

}  // namespace

std::optional<LockInfo> SqliteStateStore::ReadLock(const std::string& stage) { return ReadLockByKey(Key(stage)); }

std::optional<LockInfo> SqliteStateStore::ReadLockByKey(const std::string& key) {
  Statement& st = db_->Prepare(std::string("SELECT ") + kLockColumns + " FROM locks WHERE stage = ?");
  st.Bind(1, key);
  std::optional<LockInfo> lock;
  if (st.Step()) lock = LockFromRow(st);
  st.Reset();
  if (lock && lock->host == env_->Hostname() &&
      env_->CheckProcess(lock->pid, lock->process_start) == ProcessLiveness::Gone) {
    lock->stale = true;
  }
  return lock;
}

StateResult<LockInfo> SqliteStateStore::TryLock(const LockRequest& request) {
  return Guard([&]() -> StateResult<LockInfo> {
    if (request.stage.empty()) return StateStatus::Error(StateCode::InvalidArgument, "a lock needs a stage name");
    Transaction tx(*db_, Transaction::Kind::Write);
    std::string took_over;
    if (auto held = ReadLock(request.stage)) {
      if (!held->stale) return StateStatus::Error(StateCode::LockHeld, LockHeldMessage(*held, env_->NowMillis()));
      // Its process is gone from this host (killed, crashed): nobody can release it but us.
      took_over = LockDescription(*held, env_->NowMillis());
      db_->Prepare("DELETE FROM locks WHERE id = ?").Bind(1, held->id).Run();
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
    db_->Prepare(std::string("INSERT INTO locks(") + kLockColumns + ") VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
        .Bind(1, lock.id)
        .Bind(2, Key(lock.stage))
        .Bind(3, lock.user)
        .Bind(4, lock.host)
        .Bind(5, lock.pid)
        .Bind(6, lock.process_start)
        .Bind(7, lock.operation)
        .Bind(8, lock.since)
        .Run();
    tx.Commit();
    return lock;
  });
}

StateStatus SqliteStateStore::Unlock(const std::string& stage, const std::string& lock_id) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    db_->Prepare("DELETE FROM locks WHERE stage = ? AND id = ?").Bind(1, Key(stage)).Bind(2, lock_id).Run();
    if (db_->Changes() == 0) {
      return StateStatus::Error(StateCode::NotFound, "the lock " + lock_id + " on " +
                                                         StageLabel(options_.environment, stage) +
                                                         " is not held (was it force-unlocked?)");
    }
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateResult<LockInfo> SqliteStateStore::ForceUnlock(const std::string& lock_id) {
  return Guard([&]() -> StateResult<LockInfo> {
    Transaction tx(*db_, Transaction::Kind::Write);
    Statement& st = db_->Prepare(std::string("SELECT ") + kLockColumns + " FROM locks WHERE id = ?");
    st.Bind(1, lock_id);
    std::optional<LockInfo> lock;
    if (st.Step()) lock = LockFromRow(st);
    st.Reset();
    if (!lock) {
      std::vector<LockInfo> held;
      Statement& all = db_->Prepare(std::string("SELECT ") + kLockColumns + " FROM locks ORDER BY stage");
      while (all.Step()) held.push_back(LockFromRow(all));
      return NoSuchLock(lock_id, held);
    }
    db_->Prepare("DELETE FROM locks WHERE id = ?").Bind(1, lock_id).Run();
    tx.Commit();
    return *lock;
  });
}

StateResult<std::optional<LockInfo>> SqliteStateStore::CurrentLock(const std::string& stage) {
  return Guard([&]() -> StateResult<std::optional<LockInfo>> { return ReadLock(stage); });
}

std::function<void()> SqliteStateStore::EmergencyUnlocker(const std::string& stage, const std::string& lock_id) {
  std::string path = db_->path();
  int timeout = options_.busy_timeout_ms;
  return [path, timeout, key = Key(stage), lock_id]() {
    try {
      auto db = Database::Open(path, timeout);
      db->Prepare("DELETE FROM locks WHERE stage = ? AND id = ?").Bind(1, key).Bind(2, lock_id).Run();
    } catch (...) {
      // Best effort: the lock then shows as stale (its process is gone) and names force-unlock.
    }
  };
}

StateStatus SqliteStateStore::RequireLock(const std::string& stage, const std::string& lock_id) {
  Statement& st = db_->Prepare("SELECT id FROM locks WHERE stage = ?");
  st.Bind(1, Key(stage));
  std::optional<std::string> held;
  if (st.Step()) held = st.Text(0);
  st.Reset();
  if (held && *held == lock_id) return StateStatus::Ok();
  return LockNotHeld(options_.environment, stage, lock_id, held ? ReadLock(stage) : std::nullopt);
}

}  // namespace strata::state
