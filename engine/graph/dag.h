#pragma once
// A directed graph of dependencies. Nodes are dense indexes; the caller keeps the payload.
// An edge from A to B means "A depends on B": B runs first.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace strata {

using NodeId = size_t;
//! "No node", for optional node references.
inline constexpr NodeId kNoNode = static_cast<NodeId>(-1);

class Dag {
 public:
  NodeId AddNode();
  //! `from` depends on `to`. Duplicate edges are ignored.
  void AddEdge(NodeId from, NodeId to);
  size_t size() const { return dependencies_.size(); }
  const std::vector<NodeId>& DependenciesOf(NodeId n) const { return dependencies_[n]; }
  const std::vector<NodeId>& DependentsOf(NodeId n) const { return dependents_[n]; }

  //! Every cycle (strongly connected component with more than one node, or a self-edge),
  //! each listed in dependency order starting from its smallest node id.
  std::vector<std::vector<NodeId>> Cycles() const;
  //! Dependencies before dependents. Only meaningful when there are no cycles.
  std::vector<NodeId> TopologicalOrder() const;
  //! Graphviz DOT; `label` names each node. Edges point from dependent to dependency.
  std::string ToDot(const std::function<std::string(NodeId)>& label, const std::string& name = "strata") const;

 private:
  std::vector<std::vector<NodeId>> dependencies_;
  std::vector<std::vector<NodeId>> dependents_;
};

}  // namespace strata
