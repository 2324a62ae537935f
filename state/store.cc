#include "state/store.h"

#include <algorithm>

#include "state/environment.h"

namespace strata::state {

StateResult<LockInfo> StateStore::Lock(const LockRequest& request) {
  StateEnvironment& env = Env();
  const int64_t deadline = env.NowMillis() + request.timeout.count();
  int64_t backoff = 50;
  for (;;) {
    auto result = TryLock(request);
    if (result.ok() || result.status().code() != StateCode::LockHeld) return result;
    int64_t now = env.NowMillis();
    if (now >= deadline) return result;
    // Jitter of up to a quarter of the backoff keeps racing waiters from retrying in step.
    unsigned char r = static_cast<unsigned char>(env.RandomBytes(1)[0]);
    int64_t sleep = backoff + backoff * r / 1024;
    env.SleepMillis(std::min(sleep, deadline - now));
    backoff = std::min<int64_t>(backoff * 2, 1000);
  }
}

std::vector<StateResult<int64_t>> StateStore::WriteJournal(const ChangeSet& cs,
                                                           const std::vector<JournalEntry>& entries) {
  std::vector<StateResult<int64_t>> results;
  results.reserve(entries.size());
  for (const JournalEntry& e : entries) {
    switch (e.kind) {
      case JournalEntry::Kind::Begin: results.push_back(BeginOperation(cs, e.request)); break;
      case JournalEntry::Kind::Complete: {
        StateStatus s = CompleteOperation(cs, e.operation_id, e.state);
        results.push_back(s.ok() ? StateResult<int64_t>(int64_t{0}) : StateResult<int64_t>(s));
        break;
      }
      case JournalEntry::Kind::Fail: {
        StateStatus s = FailOperation(cs, e.operation_id, e.error, e.state);
        results.push_back(s.ok() ? StateResult<int64_t>(int64_t{0}) : StateResult<int64_t>(s));
        break;
      }
    }
  }
  return results;
}

}  // namespace strata::state
