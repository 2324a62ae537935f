#pragma once
// Holding a stage lock safely: ScopedStageLock releases it on every normal exit path
// (return, exception), and registers it with HeldLocks so that the interrupt handler
// (interrupt.h) and atexit can release it on the others (SIGINT, SIGTERM, exit()).
// Only kill -9 (or a power cut) can leave a lock behind; the next run on this host takes it
// over (its process is gone) and says so with TakeoverWarning.

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "state/store.h"

namespace strata::state {

//! The process-wide list of locks held, each with a way to release it out of band.
class HeldLocks {
 public:
  static HeldLocks& Instance();

  //! Registers a lock; returns a token for Remove.
  int Add(std::string description, std::function<void()> release);
  //! Forgets a lock (released normally).
  void Remove(int token);
  //! Releases every registered lock exactly once, from any thread; returns their descriptions.
  std::vector<std::string> ReleaseAll();
  size_t size();

 private:
  struct Entry {
    int token;
    std::string description;
    std::function<void()> release;
  };
  std::mutex mu_;
  int next_token_ = 1;
  std::vector<Entry> entries_;
};

//! A held stage lock, released when destroyed.
class ScopedStageLock {
 public:
  //! store.Lock(request) (waiting up to request.timeout) and registration with HeldLocks.
  static StateResult<ScopedStageLock> Acquire(StateStore& store, const LockRequest& request);

  ScopedStageLock(ScopedStageLock&& other) noexcept;
  ScopedStageLock& operator=(ScopedStageLock&&) = delete;
  ScopedStageLock(const ScopedStageLock&) = delete;
  ~ScopedStageLock();

  const LockInfo& info() const { return info_; }
  const std::string& id() const { return info_.id; }
  //! Unlocks now, reporting a failure (e.g. the lock was force-unlocked meanwhile).
  StateStatus Release();

 private:
  ScopedStageLock(StateStore* store, LockInfo info, int token) : store_(store), info_(std::move(info)), token_(token) {}
  StateStore* store_;
  LockInfo info_;
  int token_;
};

//! The warning to show when `lock` was taken over from a stale holder (LockInfo::took_over):
//! one line naming the dead holder; nothing when it was not.
Diagnostics TakeoverWarning(const LockInfo& lock);

}  // namespace strata::state
