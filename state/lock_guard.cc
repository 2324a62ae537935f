#include "state/lock_guard.h"

#include <algorithm>

namespace strata::state {

HeldLocks& HeldLocks::Instance() {
  static HeldLocks* instance = new HeldLocks();  // never destroyed: usable from atexit
  return *instance;
}

int HeldLocks::Add(std::string description, std::function<void()> release) {
  std::lock_guard<std::mutex> g(mu_);
  int token = next_token_++;
  entries_.push_back({token, std::move(description), std::move(release)});
  return token;
}

void HeldLocks::Remove(int token) {
  std::lock_guard<std::mutex> g(mu_);
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.token == token; }),
                 entries_.end());
}

std::vector<std::string> HeldLocks::ReleaseAll() {
  std::vector<Entry> taken;
  {
    std::lock_guard<std::mutex> g(mu_);
    taken.swap(entries_);
  }
  std::vector<std::string> released;
  for (auto& e : taken) {
    e.release();
    released.push_back(e.description);
  }
  return released;
}

size_t HeldLocks::size() {
  std::lock_guard<std::mutex> g(mu_);
  return entries_.size();
}

StateResult<ScopedStageLock> ScopedStageLock::Acquire(StateStore& store, const LockRequest& request) {
  auto lock = store.Lock(request);
  if (!lock.ok()) return lock.status();
  int token = HeldLocks::Instance().Add("stage \"" + lock->stage + "\" (lock ID " + lock->id + ")",
                                        store.EmergencyUnlocker(lock->stage, lock->id));
  return ScopedStageLock(&store, *lock, token);
}

ScopedStageLock::ScopedStageLock(ScopedStageLock&& other) noexcept
    : store_(other.store_), info_(std::move(other.info_)), token_(other.token_) {
  other.store_ = nullptr;
}

ScopedStageLock::~ScopedStageLock() { Release(); }

StateStatus ScopedStageLock::Release() {
  if (!store_) return StateStatus::Ok();
  HeldLocks::Instance().Remove(token_);
  StateStatus s = store_->Unlock(info_.stage, info_.id);
  store_ = nullptr;
  return s;
}

Diagnostics TakeoverWarning(const LockInfo& lock) {
  Diagnostics diags;
  if (lock.took_over.empty()) return diags;
  diags.Warning("Took over a stale lock",
                "Stage \"" + lock.stage + "\" was locked by " + lock.took_over +
                    ", a process that no longer holds it (gone from this host, killed or crashed; or, with "
                    "PostgreSQL state, its database session ended); this run holds the lock now and reconciles any "
                    "operation it left in flight.");
  return diags;
}

}  // namespace strata::state
