#include "engine/core/resource_dependencies.h"

#include <algorithm>

namespace strata {

namespace {

bool IsResource(const GraphNode& n) { return n.kind == NodeKind::Resource || n.kind == NodeKind::Data; }

}  // namespace

NodeId ProviderBlockFor(const StageGraph& graph, const ResourceInstanceAddr& addr, const std::string& key) {
  const std::string& provider = key;
  // The deepest module instance on addr's path that still exists.
  int module = 0;
  const ModulePath declared = addr.module.WithoutKeys();
  for (size_t i = 0; i < graph.modules.size(); ++i) {
    const ModulePath& path = graph.modules[i].path;
    bool prefix = path.steps.size() <= declared.steps.size() &&
                  std::equal(path.steps.begin(), path.steps.end(), declared.steps.begin());
    if (prefix && path.steps.size() >= graph.modules[module].path.steps.size()) module = static_cast<int>(i);
  }
  return FindProviderBlock(graph, static_cast<size_t>(module), provider);
}

std::string ResourceNodeAddress(const StageGraph& graph, NodeId id) { return graph.Label(id); }

namespace {

// The DFS of ResourcesReadBy with caller-owned scratch space, so that ResourceDependencies
// walks every resource without allocating per node.
std::vector<std::string> ResourcesReadBy(const StageGraph& graph, NodeId id, std::vector<size_t>& seen, size_t epoch,
                                         std::vector<NodeId>& stack) {
  std::vector<std::string> deps;
  stack.assign(graph.dag.DependenciesOf(id).begin(), graph.dag.DependenciesOf(id).end());
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
  return deps;
}

}  // namespace

std::vector<std::string> ResourcesReadBy(const StageGraph& graph, NodeId id) {
  std::vector<size_t> seen(graph.nodes.size(), 0);
  std::vector<NodeId> stack;
  return ResourcesReadBy(graph, id, seen, 1, stack);
}

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
    result[id] = ResourcesReadBy(graph, id, seen, ++epoch, stack);
  }
  return result;
}

}  // namespace strata
