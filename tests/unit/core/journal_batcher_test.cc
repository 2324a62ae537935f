// JournalBatcher: the apply's journal writes share commits, and each returns only once its
// own entry was written, with its own result.

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/journal_batcher.h"

namespace strata {
namespace {

using state::JournalEntry;
using state::StateCode;
using state::StateResult;
using state::StateStatus;

JournalEntry Complete(int64_t id) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::Complete;
  e.operation_id = id;
  return e;
}

// The id of each entry comes back (negated when odd, as a refusal), so a result that went
// to the wrong writer shows.
std::vector<StateResult<int64_t>> Answer(const std::vector<JournalEntry>& entries) {
  std::vector<StateResult<int64_t>> results;
  for (const JournalEntry& e : entries) {
    if (e.operation_id % 2) {
      results.emplace_back(StateStatus::Error(StateCode::NotFound, "odd " + std::to_string(e.operation_id)));
    } else {
      results.emplace_back(e.operation_id);
    }
  }
  return results;
}

TEST(JournalBatcherTest, ALoneWriterCommitsAtOnce) {
  int commits = 0;
  JournalBatcher batcher([&](const std::vector<JournalEntry>& entries) {
    ++commits;
    return Answer(entries);
  });
  EXPECT_EQ(*batcher.Write(Complete(4)), 4);
  EXPECT_EQ(batcher.Write(Complete(3)).status().message(), "odd 3");
  EXPECT_EQ(commits, 2);
  EXPECT_EQ(batcher.stats().entries, 2);
}

TEST(JournalBatcherTest, WritersQueuedBehindACommitShareTheNextOne) {
  constexpr int kWriters = 8;
  std::atomic<bool> first_commit_started{false};
  std::atomic<bool> release_first_commit{false};
  std::vector<size_t> batch_sizes;
  JournalBatcher batcher([&](const std::vector<JournalEntry>& entries) {
    if (batch_sizes.empty()) {
      // The first commit is slow (a busy disk): it ends only once the other writers have
      // queued behind it, however long the machine takes to get them there.
      first_commit_started = true;
      while (!release_first_commit.load()) std::this_thread::yield();
    }
    batch_sizes.push_back(entries.size());
    return Answer(entries);
  });
  std::vector<std::optional<StateResult<int64_t>>> results(kWriters);
  std::vector<std::thread> writers;
  // The first writer is alone when it starts, so its entry is the slow commit's only one.
  writers.emplace_back([&] { results[0] = batcher.Write(Complete(0)); });
  while (!first_commit_started.load()) std::this_thread::yield();
  for (int i = 1; i < kWriters; ++i) {
    writers.emplace_back([&, i] { results[i] = batcher.Write(Complete(i)); });
  }
  while (batcher.waiting() < static_cast<size_t>(kWriters - 1)) std::this_thread::yield();
  release_first_commit = true;
  for (std::thread& t : writers) t.join();

  ASSERT_EQ(batch_sizes.size(), 2u);
  EXPECT_EQ(batch_sizes[0], 1u);
  EXPECT_EQ(batch_sizes[1], static_cast<size_t>(kWriters - 1));
  EXPECT_EQ(batcher.stats().commits, 2);
  EXPECT_EQ(batcher.stats().entries, kWriters);
  for (int i = 0; i < kWriters; ++i) {
    ASSERT_TRUE(results[i].has_value());
    if (i % 2) {
      EXPECT_EQ(results[i]->status().message(), "odd " + std::to_string(i));
    } else {
      EXPECT_EQ(**results[i], i);
    }
  }
}

TEST(JournalBatcherTest, AStoreThatAnswersTooFewFailsTheRestInsteadOfHanging) {
  JournalBatcher batcher([](const std::vector<JournalEntry>&) { return std::vector<StateResult<int64_t>>{}; });
  EXPECT_EQ(batcher.Write(Complete(2)).status().code(), StateCode::Io);
}

}  // namespace
}  // namespace strata
