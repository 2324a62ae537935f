#pragma once
// Refresh in batches: the objects of one type that one provider block serves are read with
// Provider::ReadResources, many per call, the batches side by side under -parallelism,
// instead of one ReadResource each (a no-op plan of 1,000 subnets: a handful of
// DescribeSubnets instead of 1,000).
//
// Reading an object needs only its prior state and a configured provider, never another
// resource's value, so a plan may read it before the walk reaches it. The planner lists
// those instances up front (RefreshCandidate: every managed object in state, but those whose
// configuration sets a read timeout); the first of a (provider block, type) group that the
// walk — or the refresh of orphans and of a destroy — asks for reads the whole group, once
// the walk has configured that block; the others wait for it and take their own answer.
// Where the provider does not read the type in batches, or an instance is not listed under
// that block, Take says so and the caller reads the instance alone, as before.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/operation_slots.h"
#include "engine/graph/dag.h"
#include "providers/provider.h"

namespace strata {

//! An instance whose refresh may be batched.
struct RefreshCandidate {
  std::string address;  //!< "aws_subnet.a[3]"
  std::string type;     //!< "aws_subnet"
  NodeId block;         //!< the provider block that serves it (kNoNode: the provider's defaults)
  const Value* prior;   //!< its prior state; outlives the RefreshBatches
};

class RefreshBatches {
 public:
  //! At most this many objects in one ReadResources call.
  static constexpr size_t kMaxBatch = 200;
  //! Fewer objects than this in a batch only when the group is smaller: below it, more
  //! calls buy no time.
  static constexpr size_t kMinBatch = 20;

  //! `slots` bounds the provider calls (one per batch in flight); `parallelism` how many
  //! batches run at once; once `stop` (may be null) is set, no further batch is sent.
  //! `report` is called for each object as its batch is sent (the "Refreshing state..."
  //! line); it may be empty.
  RefreshBatches(std::vector<RefreshCandidate> candidates, OperationSlots& slots, int parallelism,
                 const std::atomic<bool>* stop, std::function<void(const std::string& address, const Value& prior)> report);

  //! The refresh of `address`, read in its group's batch, when it is a candidate served by
  //! `block` and `provider` reads `type` in batches; nullopt otherwise, and for a batch not
  //! sent because of `stop` (read it alone, or not at all, as the caller decides). The
  //! first call of a group reads the whole group with `provider` (later calls wait for it).
  //! Must not be called while holding one of the slots.
  std::optional<ReadResult> Take(const std::string& address, const std::string& type, NodeId block,
                                 Provider& provider);

  //! How many ReadResources calls were sent (for tests and logs).
  size_t BatchesSent() const;

 private:
  struct Group {
    std::once_flag once;
    std::vector<size_t> members;  // indexes into candidates_
  };
  void ReadGroup(const std::string& type, Group& group, Provider& provider);

  std::vector<RefreshCandidate> candidates_;
  std::vector<ReadResult> results_;               // by candidate
  std::vector<char> read_;                        // by candidate: its batch was sent
  std::map<std::string, size_t> by_address_;      // address -> candidate
  std::map<std::pair<NodeId, std::string>, std::unique_ptr<Group>> groups_;  // (block, type)
  OperationSlots& slots_;
  int parallelism_;
  const std::atomic<bool>* stop_;
  std::function<void(const std::string&, const Value&)> report_;
  mutable std::mutex mu_;
  size_t batches_sent_ = 0;
};

}  // namespace strata
