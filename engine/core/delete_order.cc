#include "engine/core/delete_order.h"

#include <map>
#include <set>
#include <string>

namespace strata {

Dag DeleteOrder(const std::vector<const ResourceInstanceChange*>& deletes) {
  Dag dag;
  for (size_t i = 0; i < deletes.size(); ++i) dag.AddNode();
  // A dependency names an instance ("aws_subnet.a[0]"), a whole resource ("aws_subnet.a")
  // or a declaration in a repeated module ("module.ng.aws_eks_node_group.this").
  std::map<std::string, std::vector<NodeId>> by_name;
  for (size_t i = 0; i < deletes.size(); ++i) {
    const ResourceInstanceAddr& addr = deletes[i]->addr;
    std::set<std::string> names = {addr.ToString(), addr.WithoutKey().ToString(), addr.ConfigAddr().ToString()};
    for (const std::string& name : names) by_name[name].push_back(i);
  }
  for (size_t j = 0; j < deletes.size(); ++j) {
    for (const std::string& dep : deletes[j]->dependencies) {
      auto it = by_name.find(dep);
      if (it == by_name.end()) continue;
      for (NodeId i : it->second) {
        if (i != j) dag.AddEdge(i, j);
      }
    }
  }
  return dag;
}

}  // namespace strata
