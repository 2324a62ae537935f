#include "engine/core/journal_batcher.h"

#include <utility>

namespace strata {

state::StateResult<int64_t> JournalBatcher::Write(state::JournalEntry entry) {
  Waiting me{std::move(entry), std::nullopt};
  std::unique_lock lock(mu_);
  queue_.push_back(&me);
  while (!me.result) {
    if (flushing_) {
      written_.wait(lock);
      continue;
    }
    // Nobody is committing: this thread commits everything queued, its own entry included.
    flushing_ = true;
    std::vector<Waiting*> batch;
    batch.swap(queue_);
    lock.unlock();
    std::vector<state::JournalEntry> entries;
    entries.reserve(batch.size());
    for (Waiting* w : batch) entries.push_back(std::move(w->entry));
    std::vector<state::StateResult<int64_t>> results = flush_(entries);
    lock.lock();
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i]->result = i < results.size() ? std::move(results[i])
                                            : state::StateResult<int64_t>(state::StateStatus::Error(
                                                  state::StateCode::Io, "the state store answered fewer journal writes than it was given"));
    }
    ++stats_.commits;
    stats_.entries += static_cast<int64_t>(batch.size());
    flushing_ = false;
    written_.notify_all();
  }
  return std::move(*me.result);
}

size_t JournalBatcher::waiting() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

JournalBatcher::Stats JournalBatcher::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

}  // namespace strata
