#pragma once
// Group commit for the apply's operation journal. Every create, update and delete is
// journaled before its provider call is sent and recorded when the call returns, each a
// durable (fsync'd) write: with one commit per write, an apply of trivial resources waits
// on the disk, not on its providers. The batcher lets the walker threads share commits:
// a thread that writes while another's commit is in flight queues its entry, and the next
// commit takes everything queued in one step (StateStore::WriteJournal). No write is
// delayed on purpose, a lone thread commits at once, and Write returns only once its own
// entry is durable — so "recorded before the call is sent" holds as it did for one
// commit per write.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "state/store.h"

namespace strata {

class JournalBatcher {
 public:
  //! Writes the entries in one durable step and returns one result per entry, in order
  //! (StateStore::WriteJournal under whatever lock the store needs). Called by one thread
  //! at a time.
  using Flush = std::function<std::vector<state::StateResult<int64_t>>(const std::vector<state::JournalEntry>&)>;

  explicit JournalBatcher(Flush flush) : flush_(std::move(flush)) {}

  //! Thread-safe. Returns when `entry` is durable (or was refused): the operation id for a
  //! Begin, 0 for a Complete or Fail.
  state::StateResult<int64_t> Write(state::JournalEntry entry);

  //! Commits made so far and the entries they carried (the benchmark reports the ratio).
  struct Stats {
    int64_t commits = 0;
    int64_t entries = 0;
  };
  Stats stats() const;
  //! Entries queued behind the commit in flight, not yet taken by one.
  size_t waiting() const;

 private:
  struct Waiting {
    state::JournalEntry entry;
    std::optional<state::StateResult<int64_t>> result;
  };

  Flush flush_;
  mutable std::mutex mu_;
  std::condition_variable written_;
  std::vector<Waiting*> queue_;
  bool flushing_ = false;
  Stats stats_;
};

}  // namespace strata
