#include "engine/core/targets.h"

#include <fmt/format.h>

namespace strata {

namespace {

// Whether module instance `inner` is `outer` or inside it. A step of `outer` without a key
// names every instance of that call (-target=module.ng covers module.ng["gpu"]).
bool ModuleContains(const ModulePath& outer, const ModulePath& inner) {
  if (outer.steps.size() > inner.steps.size()) return false;
  for (size_t i = 0; i < outer.steps.size(); ++i) {
    if (outer.steps[i].name != inner.steps[i].name) return false;
    if (!outer.steps[i].key.IsNone() && !(outer.steps[i].key == inner.steps[i].key)) return false;
  }
  return true;
}

// Whether a target written with module instance keys can reach the declarations of module
// path `declared` (the graph's, without keys).
bool ModuleCallsContain(const ModulePath& outer, const ModulePath& declared) {
  return ModuleContains(outer.WithoutKeys(), declared);
}

}  // namespace

TargetSet::TargetSet(const std::vector<std::string>& texts) : texts_(texts) {}

std::vector<bool> TargetSet::NodesToPlan(const StageGraph& graph, Diagnostics& diags) {
  if (texts_.empty()) return {};
  parsed_.clear();
  for (const std::string& text : texts_) {
    Target t;
    AddrParseResult r = ParseResourceInstanceAddr(text);
    if (r.addr) {
      t.instance = r.addr;
      t.has_key = r.has_key;
    } else if (auto m = ParseModulePath(text); m && !m->IsRoot()) {
      t.module = m;
    } else {
      diags.Error("Invalid target address",
                  fmt::format("\"{}\" is not a resource, instance or module address: {}. Write for example "
                              "-target=aws_vpc.main, -target='aws_subnet.private[0]' or -target=module.eks.",
                              text, r.error));
      continue;
    }
    parsed_.push_back(std::move(t));
  }
  named_nodes_.assign(graph.nodes.size(), false);
  std::vector<bool> plan(graph.nodes.size(), false);
  std::vector<NodeId> stack;
  for (size_t ti = 0; ti < parsed_.size(); ++ti) {
    const Target& t = parsed_[ti];
    bool found = false;
    for (NodeId id = 0; id < graph.nodes.size(); ++id) {
      const GraphNode& n = graph.nodes[id];
      if (n.kind != NodeKind::Resource && n.kind != NodeKind::Data) continue;
      const ModulePath& path = graph.modules[n.module].path;
      bool hit = t.module ? ModuleCallsContain(*t.module, path)
                          : path == t.instance->module.WithoutKeys() && n.resource->Addr() == t.instance->resource;
      if (!hit) continue;
      found = true;
      named_nodes_[id] = true;
      stack.push_back(id);
    }
    if (!found && !diags.HasErrors()) {
      diags.Warning("Target not in configuration",
                    fmt::format("-target={} names nothing the configuration declares; only instances in state can match "
                                "it.",
                                texts_[ti]));
    }
  }
  while (!stack.empty()) {
    NodeId id = stack.back();
    stack.pop_back();
    if (plan[id]) continue;
    plan[id] = true;
    for (NodeId d : graph.dag.DependenciesOf(id)) stack.push_back(d);
  }
  return plan;
}

bool TargetSet::MatchesInstance(const ResourceInstanceAddr& addr, NodeId node) const {
  if (texts_.empty()) return true;
  if (node < named_nodes_.size() && !named_nodes_[node]) return true;  // pulled in as a dependency
  return MatchesAddress(addr);
}

bool TargetSet::MatchesAddress(const ResourceInstanceAddr& addr) const {
  for (const Target& t : parsed_) {
    if (t.module && ModuleContains(*t.module, addr.module)) return true;
    if (t.instance && t.instance->module.steps.size() == addr.module.steps.size() &&
        ModuleContains(t.instance->module, addr.module) && t.instance->resource == addr.resource &&
        (!t.has_key || t.instance->key == addr.key)) {
      return true;
    }
  }
  return false;
}

}  // namespace strata

