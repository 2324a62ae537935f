#pragma once
// The order of an apply's deletes, as a graph step: the reverse of the dependency order,
// so that an object goes before what it depends on (a NAT gateway before the address it
// holds, a subnet before its VPC).

#include <vector>

#include "engine/graph/dag.h"
#include "engine/plan/change.h"

namespace strata {

//! A Dag over `deletes` (node i is deletes[i]) in which i depends on j whenever j's
//! dependencies name i's instance or its resource: walked, it deletes dependents first.
//! Dependencies outside `deletes` do not order anything.
Dag DeleteOrder(const std::vector<const ResourceInstanceChange*>& deletes);

}  // namespace strata
