#include "engine/core/ordering_classes.h"

#include <algorithm>
#include <memory>
#include <set>

namespace strata {
namespace {

// True when `from` reaches `to` along dependencies.
bool Reaches(const Dag& dag, NodeId from, NodeId to) {
  std::vector<bool> seen(dag.size(), false);
  std::vector<NodeId> stack{from};
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    if (n == to) return true;
    if (seen[n]) continue;
    seen[n] = true;
    for (NodeId d : dag.DependenciesOf(n)) stack.push_back(d);
  }
  return false;
}

}  // namespace

OrderingClasses::OrderingClasses(const Plan& plan, const ProviderRegistry& registry) {
  std::map<std::string, std::unique_ptr<Provider>> providers;
  for (const ResourceInstanceChange& c : plan.changes) {
    if (c.mode != "managed" || c.action == Action::NoOp) continue;
    std::optional<std::string> name = registry.ProviderFor(ResourceMode::Managed, c.type);
    if (!name) continue;
    auto& provider = providers[*name];
    if (!provider) provider = registry.Create(*name);
    if (!provider) continue;
    const Value& value = c.action == Action::Delete ? c.before : c.after;
    int cls = provider->OrderingClass(c.type, value);
    any_ = any_ || cls != 0;
    by_instance_[c.addr.ToString()] = Entry{*name, c.addr.ConfigAddr().ToString(), cls};
  }
}

int OrderingClasses::Of(const std::string& instance_address) const {
  auto it = by_instance_.find(instance_address);
  return it == by_instance_.end() ? 0 : it->second.cls;
}

void OrderingClasses::OrderResources(StageGraph& graph, Diagnostics& diags) const {
  if (!any_) return;
  // Each resource's provider and the range of its instances' classes.
  struct Range {
    std::string provider;
    int low = 0, high = 0;
  };
  std::map<std::string, Range> ranges;
  for (const auto& [address, e] : by_instance_) {
    auto [it, inserted] = ranges.try_emplace(e.resource, Range{e.provider, e.cls, e.cls});
    if (!inserted) {
      it->second.low = std::min(it->second.low, e.cls);
      it->second.high = std::max(it->second.high, e.cls);
    }
  }
  std::map<std::string, NodeId> nodes;
  for (NodeId n = 0; n < graph.nodes.size(); ++n) {
    if (graph.nodes[n].kind == NodeKind::Resource && ranges.count(graph.Label(n))) nodes[graph.Label(n)] = n;
  }
  Dag ordered = graph.dag;
  std::vector<std::pair<NodeId, NodeId>> added;
  for (const auto& [first, a] : ranges) {
    for (const auto& [second, b] : ranges) {
      // `first` goes first when none of its classes is above any of `second`'s and the two
      // are not one and the same class: a lone namespace before a directory of manifests
      // whose lowest class is namespaces too.
      if (first == second || a.provider != b.provider || !(a.high <= b.low && a.low < b.high)) continue;
      if (!nodes.count(first) || !nodes.count(second)) continue;
      NodeId before = nodes[first], after = nodes[second];
      if (Reaches(ordered, before, after)) continue;  // the configuration says the reverse: it wins
      ordered.AddEdge(after, before);
      added.emplace_back(after, before);
    }
  }
  if (added.empty()) return;
  if (!ordered.Cycles().empty()) {
    diags.Warning("Ordering classes not applied",
                  "The order of objects by kind (e.g. namespaces before what lives in them) conflicts with the "
                  "dependencies the configuration states; resources are applied in dependency order only. Add "
                  "depends_on where an object needs another first.");
    return;
  }
  graph.dag = std::move(ordered);
}

size_t OrderingClasses::OrderDeletes(Dag& dag, const std::vector<const ResourceInstanceChange*>& deletes,
                                     Diagnostics& diags) const {
  size_t real = dag.size();
  if (!any_) return real;
  // Per provider, the instances of each class, highest class first.
  std::map<std::string, std::map<int, std::vector<NodeId>, std::greater<int>>> classes;
  for (NodeId i = 0; i < deletes.size(); ++i) {
    auto it = by_instance_.find(deletes[i]->addr.ToString());
    if (it == by_instance_.end()) continue;
    classes[it->second.provider][it->second.cls].push_back(i);
  }
  Dag ordered = dag;
  for (const auto& [provider, by_class] : classes) {
    const std::vector<NodeId>* previous = nullptr;
    for (const auto& [cls, members] : by_class) {
      if (previous) {
        NodeId barrier = ordered.AddNode();
        for (NodeId p : *previous) ordered.AddEdge(barrier, p);
        for (NodeId m : members) ordered.AddEdge(m, barrier);
      }
      previous = &members;
    }
  }
  if (!ordered.Cycles().empty()) {
    diags.Warning("Ordering classes not applied",
                  "Deleting objects by kind (e.g. namespaces after what lives in them) conflicts with the dependencies "
                  "the configuration states; they are deleted in reverse dependency order only.");
    return real;
  }
  dag = std::move(ordered);
  return real;
}

}  // namespace strata
