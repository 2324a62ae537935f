#include "engine/graph/walker.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

namespace strata {
namespace {

Dag MakeDag(size_t n, const std::vector<std::pair<NodeId, NodeId>>& edges) {
  Dag dag;
  for (size_t i = 0; i < n; ++i) dag.AddNode();
  for (const auto& [from, to] : edges) dag.AddEdge(from, to);
  return dag;
}

TEST(WalkerTest, RunsEveryNodeOnceAfterItsDependencies) {
  // A diamond and a chain: 3 -> {1, 2} -> 0; 6 -> 5 -> 4.
  Dag dag = MakeDag(7, {{1, 0}, {2, 0}, {3, 1}, {3, 2}, {5, 4}, {6, 5}});
  for (int parallelism : {1, 4}) {
    std::mutex mutex;
    std::vector<NodeId> finished;
    std::vector<int> runs(dag.size(), 0);
    auto status = WalkDag(dag, WalkOptions{parallelism, nullptr}, [&](NodeId n) {
      std::lock_guard lock(mutex);
      for (NodeId d : dag.DependenciesOf(n)) {
        EXPECT_NE(std::find(finished.begin(), finished.end(), d), finished.end()) << n << " ran before " << d;
      }
      ++runs[n];
      finished.push_back(n);
      return true;
    });
    EXPECT_EQ(runs, std::vector<int>(dag.size(), 1));
    EXPECT_EQ(status, std::vector<WalkStatus>(dag.size(), WalkStatus::Succeeded));
  }
}

TEST(WalkerTest, EmptyDag) {
  Dag dag;
  EXPECT_TRUE(WalkDag(dag, WalkOptions{}, [](NodeId) { return true; }).empty());
}

// Blocks each node until `width` nodes run at once (or a generous timeout passes), so that
// the maximum concurrency is reached without relying on timing.
class ConcurrencyProbe {
 public:
  explicit ConcurrencyProbe(int width) : width_(width) {}
  bool Visit() {
    int now = ++running_;
    int seen = max_.load();
    while (now > seen && !max_.compare_exchange_weak(seen, now)) {
    }
    {
      std::unique_lock lock(mutex_);
      if (now >= width_) cv_.notify_all();
      cv_.wait_for(lock, std::chrono::seconds(2), [&] { return max_.load() >= width_; });
    }
    --running_;
    return true;
  }
  int max() const { return max_.load(); }

 private:
  int width_;
  std::atomic<int> running_{0};
  std::atomic<int> max_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
};

TEST(WalkerTest, ParallelismBoundsConcurrentNodes) {
  Dag dag = MakeDag(100, {});
  ConcurrencyProbe probe(10);
  auto status = WalkDag(dag, WalkOptions{10, nullptr}, [&](NodeId) { return probe.Visit(); });
  EXPECT_EQ(status, std::vector<WalkStatus>(100, WalkStatus::Succeeded));
  EXPECT_LE(probe.max(), 10);
  EXPECT_GT(probe.max(), 1);
}

TEST(WalkerTest, ParallelismOneIsSequential) {
  Dag dag = MakeDag(20, {});
  ConcurrencyProbe probe(1);
  WalkDag(dag, WalkOptions{1, nullptr}, [&](NodeId) { return probe.Visit(); });
  EXPECT_EQ(probe.max(), 1);
}

TEST(WalkerTest, FailureSkipsDependentsTransitivelyButNotIndependentBranches) {
  // 1 fails. 2 -> 1, 3 -> 2, 4 -> {3, 0}: all skipped. 5 -> 0 and 6 are independent.
  Dag dag = MakeDag(7, {{2, 1}, {3, 2}, {4, 3}, {4, 0}, {5, 0}});
  std::vector<std::atomic<int>> runs(dag.size());
  auto status = WalkDag(dag, WalkOptions{4, nullptr}, [&](NodeId n) {
    ++runs[n];
    return n != 1;
  });
  std::vector<WalkStatus> expected = {WalkStatus::Succeeded, WalkStatus::Failed,    WalkStatus::Skipped,
                                      WalkStatus::Skipped,   WalkStatus::Skipped,   WalkStatus::Succeeded,
                                      WalkStatus::Succeeded};
  EXPECT_EQ(status, expected);
  for (NodeId n : {2, 3, 4}) EXPECT_EQ(runs[n].load(), 0) << n;
  for (NodeId n : {0, 1, 5, 6}) EXPECT_EQ(runs[n].load(), 1) << n;
}

TEST(WalkerTest, ThrowingVisitCountsAsFailure) {
  Dag dag = MakeDag(2, {{1, 0}});
  auto status = WalkDag(dag, WalkOptions{2, nullptr}, [](NodeId n) -> bool {
    if (n == 0) throw std::runtime_error("boom");
    return true;
  });
  EXPECT_EQ(status, (std::vector<WalkStatus>{WalkStatus::Failed, WalkStatus::Skipped}));
}

TEST(WalkerTest, StopFlagPreventsNewStarts) {
  // A chain: the first node sets the flag, so nothing after it starts.
  Dag dag = MakeDag(5, {{1, 0}, {2, 1}, {3, 2}, {4, 3}});
  std::atomic<bool> stop{false};
  std::atomic<int> runs{0};
  auto status = WalkDag(dag, WalkOptions{4, &stop}, [&](NodeId) {
    ++runs;
    stop = true;
    return true;
  });
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(status, (std::vector<WalkStatus>{WalkStatus::Succeeded, WalkStatus::Pending, WalkStatus::Pending,
                                             WalkStatus::Pending, WalkStatus::Pending}));
}

TEST(WalkerTest, StopFlagLetsRunningNodesFinish) {
  Dag dag = MakeDag(50, {});
  std::atomic<bool> stop{false};
  std::atomic<int> runs{0};
  auto status = WalkDag(dag, WalkOptions{4, &stop}, [&](NodeId) {
    ++runs;
    stop = true;
    return true;
  });
  int succeeded = 0, pending = 0;
  for (auto s : status) {
    succeeded += s == WalkStatus::Succeeded;
    pending += s == WalkStatus::Pending;
  }
  EXPECT_EQ(succeeded, runs.load());
  EXPECT_GE(runs.load(), 1);
  EXPECT_LE(runs.load(), 4);
  EXPECT_EQ(succeeded + pending, 50);
}

TEST(WalkerTest, PresetStopFlagRunsNothing) {
  Dag dag = MakeDag(3, {});
  std::atomic<bool> stop{true};
  auto status = WalkDag(dag, WalkOptions{2, &stop}, [](NodeId) { return true; });
  EXPECT_EQ(status, std::vector<WalkStatus>(3, WalkStatus::Pending));
}

TEST(WalkerTest, CycleNodesNeverRun) {
  Dag dag = MakeDag(3, {{0, 1}, {1, 0}});
  std::atomic<int> runs{0};
  auto status = WalkDag(dag, WalkOptions{2, nullptr}, [&](NodeId) {
    ++runs;
    return true;
  });
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(status, (std::vector<WalkStatus>{WalkStatus::Pending, WalkStatus::Pending, WalkStatus::Succeeded}));
}

}  // namespace
}  // namespace strata
