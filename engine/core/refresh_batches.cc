#include "engine/core/refresh_batches.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace strata {

RefreshBatches::RefreshBatches(std::vector<RefreshCandidate> candidates, OperationSlots& slots, int parallelism,
                               const std::atomic<bool>* stop,
                               std::function<void(const std::string& address, const Value& prior)> report)
    : candidates_(std::move(candidates)),
      results_(candidates_.size()),
      read_(candidates_.size(), 0),
      slots_(slots),
      parallelism_(std::max(1, parallelism)),
      stop_(stop),
      report_(std::move(report)) {
  for (size_t i = 0; i < candidates_.size(); ++i) {
    const RefreshCandidate& c = candidates_[i];
    by_address_[c.address] = i;
    auto& group = groups_[{c.block, c.type}];
    if (!group) group = std::make_unique<Group>();
    group->members.push_back(i);
  }
}

std::optional<ReadResult> RefreshBatches::Take(const std::string& address, const std::string& type, NodeId block,
                                               Provider& provider) {
  auto at = by_address_.find(address);
  if (at == by_address_.end()) return std::nullopt;
  const RefreshCandidate& candidate = candidates_[at->second];
  // Listed under another block (config moved the resource to another provider block since
  // state recorded it): the walk's block is the one to read with.
  if (candidate.block != block || candidate.type != type) return std::nullopt;
  if (!provider.ReadsInBatches(type)) return std::nullopt;
  Group& group = *groups_.at({block, type});
  std::call_once(group.once, [&] { ReadGroup(type, group, provider); });
  if (!read_[at->second]) return std::nullopt;
  return results_[at->second];
}

size_t RefreshBatches::BatchesSent() const {
  std::lock_guard lock(mu_);
  return batches_sent_;
}

// Splits the group into batches of kMinBatch..kMaxBatch objects, as many as -parallelism
// can run at once where the group is large enough, and reads them side by side.
void RefreshBatches::ReadGroup(const std::string& type, Group& group, Provider& provider) {
  const std::vector<size_t>& members = group.members;
  size_t per_batch = (members.size() + static_cast<size_t>(parallelism_) - 1) / static_cast<size_t>(parallelism_);
  per_batch = std::clamp(per_batch, kMinBatch, kMaxBatch);
  std::vector<std::pair<size_t, size_t>> batches;  // [begin, end) in members
  for (size_t begin = 0; begin < members.size(); begin += per_batch) {
    batches.emplace_back(begin, std::min(members.size(), begin + per_batch));
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t b = next++; b < batches.size(); b = next++) {
      if (stop_ && stop_->load()) return;
      auto [begin, end] = batches[b];
      std::vector<Value> priors;
      priors.reserve(end - begin);
      for (size_t m = begin; m < end; ++m) priors.push_back(*candidates_[members[m]].prior);
      OperationContext ctx;
      ctx.address = candidates_[members[begin]].address +
                    (end - begin > 1 ? " and " + std::to_string(end - begin - 1) + " more " + type : std::string());
      std::vector<ReadResult> read;
      {
        OperationSlots::Held slot(slots_);
        if (report_) {
          for (size_t m = begin; m < end; ++m) report_(candidates_[members[m]].address, *candidates_[members[m]].prior);
        }
        read = provider.ReadResources(ctx, type, priors);
      }
      {
        std::lock_guard lock(mu_);
        ++batches_sent_;
      }
      for (size_t m = begin; m < end; ++m) {
        read_[members[m]] = 1;
        size_t k = m - begin;
        if (k < read.size()) {
          results_[members[m]] = std::move(read[k]);
        } else {  // a provider that broke the contract: never a silent "unchanged"
          results_[members[m]].diags.Error("Provider returned too few refresh results",
                                           "The " + provider.Name() + " provider answered " +
                                               std::to_string(read.size()) + " of " + std::to_string(end - begin) +
                                               " objects of type " + type + " read together: this is a bug in it.");
        }
      }
    }
  };
  size_t threads = std::min(batches.size(), static_cast<size_t>(parallelism_));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace strata
