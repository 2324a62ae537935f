#include "engine/core/relevant_drift.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/resource_dependencies.h"

namespace strata {

namespace {

// The resources (by address) whose values flow into a planned change: the changing
// resources and outputs' readings, closed over resource-to-resource dependencies.
std::set<std::string> ResourcesFeedingChanges(const Plan& plan, const StageGraph& graph,
                                              const std::vector<std::vector<std::string>>& resource_deps) {
  std::unordered_map<std::string, NodeId> node_of;
  for (NodeId id = 0; id < graph.nodes.size(); ++id) {
    NodeKind kind = graph.nodes[id].kind;
    if (kind == NodeKind::Resource || kind == NodeKind::Data) node_of.emplace(ResourceNodeAddress(graph, id), id);
  }
  std::vector<std::string> pending;
  for (const ResourceInstanceChange& c : plan.changes) {
    if (c.action == Action::NoOp) continue;
    auto it = node_of.find(c.addr.ConfigAddr().ToString());
    if (it != node_of.end()) pending.insert(pending.end(), resource_deps[it->second].begin(), resource_deps[it->second].end());
  }
  const auto& outputs = graph.modules[0].outputs;
  for (const OutputChange& oc : plan.output_changes) {
    if (oc.action == Action::NoOp) continue;
    auto it = outputs.find(oc.name);
    if (it == outputs.end()) continue;
    std::vector<std::string> read = ResourcesReadBy(graph, it->second);
    pending.insert(pending.end(), read.begin(), read.end());
  }
  std::set<std::string> feeding;
  while (!pending.empty()) {
    std::string address = std::move(pending.back());
    pending.pop_back();
    if (!feeding.insert(address).second) continue;
    auto it = node_of.find(address);
    if (it != node_of.end()) pending.insert(pending.end(), resource_deps[it->second].begin(), resource_deps[it->second].end());
  }
  return feeding;
}

}  // namespace

void KeepRelevantDrift(Plan& plan, const StageGraph& graph, const std::vector<std::vector<std::string>>& resource_deps) {
  if (plan.mode != PlanMode::Normal || plan.drift.empty()) return;
  std::set<std::string> changing;
  for (const ResourceInstanceChange& c : plan.changes) {
    if (c.action != Action::NoOp) changing.insert(c.addr.ToString());
  }
  std::set<std::string> feeding = ResourcesFeedingChanges(plan, graph, resource_deps);
  std::vector<ResourceInstanceChange> kept;
  for (ResourceInstanceChange& d : plan.drift) {
    // An interrupted create that made nothing is news about recovery, not drift: always said.
    bool relevant = d.reason == ActionReason::InterruptedCreate || changing.count(d.addr.ToString()) ||
                    feeding.count(d.addr.ConfigAddr().ToString());
    if (relevant) kept.push_back(std::move(d));
  }
  plan.drift = std::move(kept);
}

}  // namespace strata
