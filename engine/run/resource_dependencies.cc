#include "engine/run/resource_dependencies.h"

#include <algorithm>

namespace strata {

namespace {

bool IsResource(const GraphNode& n) { return n.kind == NodeKind::Resource || n.kind == NodeKind::Data; }

}  // namespace

std::string ResourceNodeAddress(const StageGraph& graph, NodeId id) { return graph.Label(id); }

std::vector<std::vector<std::string>> ResourceDependencies(const StageGraph& graph) {
  const size_t n = graph.nodes.size();
  std::vector<std::vector<std::string>> result(n);
  // Iterative DFS per resource, stopping at the first resource on each path; the walk
  // through non-resource nodes is shared work, but stages are small enough per resource.
  std::vector<size_t> seen(n, 0);
  size_t epoch = 0;
  std::vector<NodeId> stack;
  for (NodeId id = 0; id < n; ++id) {
    if (!IsResource(graph.nodes[id])) continue;
    ++epoch;
    stack.assign(graph.dag.DependenciesOf(id).begin(), graph.dag.DependenciesOf(id).end());
    std::vector<std::string>& deps = result[id];
    while (!stack.empty()) {
      NodeId d = stack.back();
      stack.pop_back();
      if (seen[d] == epoch) continue;
      seen[d] = epoch;
      if (IsResource(graph.nodes[d])) {
        deps.push_back(ResourceNodeAddress(graph, d));
        continue;
      }
      for (NodeId next : graph.dag.DependenciesOf(d)) stack.push_back(next);
    }
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  }
  return result;
}

}  // namespace strata
