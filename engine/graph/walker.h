#pragma once
// Walks a Dag in dependency order with bounded parallelism: a node runs when all its
// dependencies succeeded; at most `parallelism` nodes run at once; a node whose dependency
// failed or was skipped is skipped ("upstream failed") and never runs. Plan and apply reuse
// this walker.

#include <atomic>
#include <functional>
#include <vector>

#include "engine/graph/dag.h"

namespace strata {

enum class WalkStatus { Pending, Succeeded, Failed, Skipped };

struct WalkOptions {
  int parallelism = 10;
  //! Checked before each node starts; when true, no new node starts (running ones finish).
  const std::atomic<bool>* stop = nullptr;
};

//! Runs `visit` for each node; `visit` returns false when the node failed. Returns each
//! node's status (Pending for nodes never started because of `stop`).
std::vector<WalkStatus> WalkDag(const Dag& dag, const WalkOptions& options, const std::function<bool(NodeId)>& visit);

}  // namespace strata
