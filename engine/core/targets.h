#pragma once
// -target: which resources a plan is limited to. A target is a resource address
// (null_resource.a: all its instances), an instance address (null_resource.a[0]) or a module
// (module.net: everything in it). The plan covers the targets and what they depend on.

#include <optional>
#include <string>
#include <vector>

#include "engine/core/stage_graph.h"

namespace strata {

class TargetSet {
 public:
  explicit TargetSet(const std::vector<std::string>& texts);

  bool empty() const { return texts_.empty(); }
  //! Per graph node: planned or not. Empty when there are no targets (plan everything).
  //! A target that names nothing in config is a warning; a malformed one an error.
  std::vector<bool> NodesToPlan(const StageGraph& graph, Diagnostics& diags);
  //! True when the instance is named by a target, or belongs to a node pulled in as a
  //! dependency of one (all its instances are planned then).
  bool MatchesInstance(const ResourceInstanceAddr& addr, NodeId node) const;
  //! True when a target names this instance (for state-only instances: orphans, destroy).
  bool MatchesAddress(const ResourceInstanceAddr& addr) const;

 private:
  struct Target {
    std::optional<ResourceInstanceAddr> instance;  // resource or instance
    bool has_key = false;
    std::optional<ModulePath> module;  // a whole module
  };
  std::vector<std::string> texts_;
  std::vector<Target> parsed_;
  std::vector<bool> named_nodes_;  // nodes a target names directly
};

}  // namespace strata
