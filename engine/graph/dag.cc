#include "engine/graph/dag.h"

#include <algorithm>
#include <unordered_set>

namespace strata {

NodeId Dag::AddNode() {
  dependencies_.emplace_back();
  dependents_.emplace_back();
  return dependencies_.size() - 1;
}

void Dag::AddEdge(NodeId from, NodeId to) {
  auto& deps = dependencies_[from];
  if (std::find(deps.begin(), deps.end(), to) != deps.end()) return;
  deps.push_back(to);
  dependents_[to].push_back(from);
}

// Tarjan's strongly connected components, iterative so that long chains cannot overflow the
// stack.
std::vector<std::vector<NodeId>> Dag::Cycles() const {
  const size_t n = size();
  const size_t kUnvisited = static_cast<size_t>(-1);
  std::vector<size_t> index(n, kUnvisited), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<NodeId> stack;
  std::vector<std::vector<NodeId>> cycles;
  size_t next_index = 0;
  struct Frame {
    NodeId node;
    size_t edge;
  };
  for (NodeId start = 0; start < n; ++start) {
    if (index[start] != kUnvisited) continue;
    std::vector<Frame> frames{{start, 0}};
    index[start] = low[start] = next_index++;
    stack.push_back(start);
    on_stack[start] = true;
    while (!frames.empty()) {
      Frame& f = frames.back();
      const auto& deps = dependencies_[f.node];
      if (f.edge < deps.size()) {
        NodeId w = deps[f.edge++];
        if (index[w] == kUnvisited) {
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          on_stack[w] = true;
          frames.push_back({w, 0});
        } else if (on_stack[w]) {
          low[f.node] = std::min(low[f.node], index[w]);
        }
        continue;
      }
      NodeId v = f.node;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[v]);
      if (low[v] != index[v]) continue;
      std::vector<NodeId> component;
      NodeId w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        component.push_back(w);
      } while (w != v);
      bool self_loop = component.size() == 1 &&
                       std::find(dependencies_[v].begin(), dependencies_[v].end(), v) != dependencies_[v].end();
      if (component.size() > 1 || self_loop) cycles.push_back(std::move(component));
    }
  }
  // Order each cycle as a walk along its edges from its smallest node.
  for (auto& c : cycles) {
    std::unordered_set<NodeId> members(c.begin(), c.end());
    NodeId first = *std::min_element(c.begin(), c.end());
    std::vector<NodeId> walk{first};
    std::unordered_set<NodeId> seen{first};
    NodeId cur = first;
    while (walk.size() < c.size()) {
      NodeId next = cur;
      for (NodeId d : dependencies_[cur]) {
        if (members.count(d) && !seen.count(d)) {
          next = d;
          break;
        }
      }
      if (next == cur) break;
      walk.push_back(next);
      seen.insert(next);
      cur = next;
    }
    c = std::move(walk);
  }
  return cycles;
}

std::vector<NodeId> Dag::TopologicalOrder() const {
  std::vector<size_t> remaining(size());
  std::vector<NodeId> ready, order;
  for (NodeId n = 0; n < size(); ++n) {
    remaining[n] = dependencies_[n].size();
    if (remaining[n] == 0) ready.push_back(n);
  }
  while (!ready.empty()) {
    NodeId n = ready.back();
    ready.pop_back();
    order.push_back(n);
    for (NodeId d : dependents_[n]) {
      if (--remaining[d] == 0) ready.push_back(d);
    }
  }
  return order;
}

std::string Dag::ToDot(const std::function<std::string(NodeId)>& label, const std::string& name) const {
  auto quote = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  };
  std::vector<std::string> labels(size());
  for (NodeId n = 0; n < size(); ++n) labels[n] = label(n);
  std::string out = "digraph " + quote(name) + " {\n  compound = \"true\"\n  newrank = \"true\"\n  rankdir = \"RL\"\n";
  std::vector<NodeId> nodes(size());
  for (NodeId n = 0; n < size(); ++n) nodes[n] = n;
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) { return labels[a] < labels[b]; });
  for (NodeId n : nodes) out += "  " + quote(labels[n]) + " [shape = \"box\"]\n";
  for (NodeId n : nodes) {
    std::vector<std::string> targets;
    for (NodeId d : dependencies_[n]) targets.push_back(labels[d]);
    std::sort(targets.begin(), targets.end());
    for (const auto& t : targets) out += "  " + quote(labels[n]) + " -> " + quote(t) + "\n";
  }
  return out + "}\n";
}

}  // namespace strata
