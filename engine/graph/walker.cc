#include "engine/graph/walker.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace strata {
namespace {

// Shared bookkeeping of one walk, guarded by `mutex`.
class WalkState {
 public:
  WalkState(const Dag& dag, const WalkOptions& options) : dag_(dag), options_(options), status_(dag.size(), WalkStatus::Pending),
                                                          remaining_(dag.size()) {
    for (NodeId n = 0; n < dag.size(); ++n) {
      remaining_[n] = dag.DependenciesOf(n).size();
      if (remaining_[n] == 0) ready_.push_back(n);
    }
    unfinished_ = dag.size();
  }

  // Blocks until a node is ready or the walk is over; returns false when over.
  bool Next(NodeId& node) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (Stopped()) return false;
      if (!ready_.empty()) {
        node = ready_.front();
        ready_.pop_front();
        ++running_;
        return true;
      }
      if (running_ == 0) return false;
      cv_.wait(lock);
    }
  }

  void Finish(NodeId node, bool ok) {
    std::lock_guard lock(mutex_);
    --running_;
    status_[node] = ok ? WalkStatus::Succeeded : WalkStatus::Failed;
    --unfinished_;
    if (ok) {
      for (NodeId d : dag_.DependentsOf(node)) {
        if (--remaining_[d] == 0 && status_[d] == WalkStatus::Pending) ready_.push_back(d);
      }
    } else {
      SkipDependents(node);
    }
    cv_.notify_all();
  }

  std::vector<WalkStatus> TakeStatus() { return std::move(status_); }

 private:
  bool Stopped() const { return options_.stop && options_.stop->load(); }

  void SkipDependents(NodeId failed) {
    std::vector<NodeId> stack(dag_.DependentsOf(failed).begin(), dag_.DependentsOf(failed).end());
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      if (status_[n] != WalkStatus::Pending) continue;
      status_[n] = WalkStatus::Skipped;
      --unfinished_;
      for (NodeId d : dag_.DependentsOf(n)) stack.push_back(d);
    }
  }

  const Dag& dag_;
  const WalkOptions& options_;
  std::vector<WalkStatus> status_;
  std::vector<size_t> remaining_;
  std::deque<NodeId> ready_;
  size_t unfinished_ = 0;
  size_t running_ = 0;
  std::mutex mutex_;
  std::condition_variable cv_;
};

}  // namespace

std::vector<WalkStatus> WalkDag(const Dag& dag, const WalkOptions& options, const std::function<bool(NodeId)>& visit) {
  WalkState state(dag, options);
  auto worker = [&] {
    NodeId node;
    while (state.Next(node)) {
      bool ok = false;
      try {
        ok = visit(node);
      } catch (...) {
        ok = false;
      }
      state.Finish(node, ok);
    }
  };
  int threads = std::max(1, options.parallelism);
  if (threads == 1 || dag.size() < 2) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  return state.TakeStatus();
}

}  // namespace strata
