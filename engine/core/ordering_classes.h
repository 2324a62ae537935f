#pragma once
// Ordering classes in an apply (Provider::OrderingClass): among the instances one provider
// serves in a stage, lower classes are created and updated first and deleted last — without
// depends_on, and never against a dependency the configuration states.
//
// Three places use them:
//  - the instances of one resource (a for_each over a directory of manifests) are applied
//    class by class (StageEvaluation's instance_class);
//  - resources of one provider whose instances' classes do not interleave (every class of
//    one at or below every class of the other, and not all one class) are ordered like a
//    dependency, unless the reverse dependency exists;
//  - deletes run higher classes first (barrier nodes between classes in the delete order).
// Where the added order would close a cycle with the configuration's own dependencies, it
// is not added and a warning says so.

#include <map>
#include <string>
#include <vector>

#include "engine/core/stage_graph.h"
#include "engine/graph/dag.h"
#include "engine/plan/change.h"
#include "providers/registry.h"

namespace strata {

class OrderingClasses {
 public:
  //! Asks each planned instance's provider (an unconfigured instance per provider name) for
  //! the class of its value: `after`, or `before` for a delete.
  OrderingClasses(const Plan& plan, const ProviderRegistry& registry);

  //! The instance's class; 0 for an instance the plan does not change.
  int Of(const std::string& instance_address) const;
  //! True when any instance has a class other than 0 (nothing to order otherwise).
  bool Any() const { return any_; }

  //! Adds resource-to-resource edges to `graph` as described above. Warnings to `diags`.
  void OrderResources(StageGraph& graph, Diagnostics& diags) const;

  //! Adds to the delete order `dag` (node i is deletes[i]) one barrier node per class
  //! boundary: every instance of a class waits for the barrier that follows every instance
  //! of the next higher class. Returns how many nodes were there before (nodes at or past it
  //! are barriers, which the walk passes through). Warnings to `diags`.
  size_t OrderDeletes(Dag& dag, const std::vector<const ResourceInstanceChange*>& deletes, Diagnostics& diags) const;

 private:
  struct Entry {
    std::string provider;
    std::string resource;  //!< resource address without the key
    int cls = 0;
  };
  std::map<std::string, Entry> by_instance_;
  bool any_ = false;
};

}  // namespace strata
