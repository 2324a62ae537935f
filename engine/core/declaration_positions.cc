#include "engine/core/declaration_positions.h"

#include <map>

namespace strata {

Diagnostics WithDeclarationPositions(const Diagnostics& diags, const StageGraph& graph) {
  std::map<std::string, SourceRange> declared;  // graph label → the declaration's name key
  Diagnostics out;
  for (Diagnostic d : diags) {
    if (!d.subject.IsKnown() && !d.address.empty()) {
      if (declared.empty()) {
        for (NodeId id = 0; id < graph.nodes.size(); ++id) {
          if (graph.nodes[id].resource) declared.emplace(graph.Label(id), graph.nodes[id].range);
        }
      }
      AddrParseResult addr = ParseResourceInstanceAddr(d.address.substr(0, d.address.find(' ')));
      if (addr.addr) {
        auto it = declared.find(addr.addr->ConfigAddr().ToString());
        if (it != declared.end()) d.subject = it->second;
      }
    }
    out.Add(std::move(d));
  }
  return out;
}

}  // namespace strata
