#pragma once
// Which resources a resource depends on, as state records them: the resources and data
// sources reachable through the graph's edges, looking through variables, locals, outputs
// and providers (Terraform's "dependencies" of a resource instance).

#include <string>
#include <vector>

#include "engine/core/stage_graph.h"

namespace strata {

//! For every node: the sorted, unique resource addresses ("module.net.aws_vpc.main",
//! "data.aws_region.current") it depends on. Empty for nodes that are not resources.
std::vector<std::vector<std::string>> ResourceDependencies(const StageGraph& graph);

//! The resource address of a resource or data node ("module.net.aws_vpc.main").
std::string ResourceNodeAddress(const StageGraph& graph, NodeId id);

}  // namespace strata
