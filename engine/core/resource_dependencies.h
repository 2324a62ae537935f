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

//! The resource addresses node `id` reads directly: the first resources and data sources on
//! every path through its dependencies (variables, locals, outputs and providers looked
//! through), sorted and unique. What ResourceDependencies holds for a resource node; usable
//! for any node (an output's).
std::vector<std::string> ResourcesReadBy(const StageGraph& graph, NodeId id);

//! The resource address of a resource or data node ("module.net.aws_vpc.main").
std::string ResourceNodeAddress(const StageGraph& graph, NodeId id);

//! The provider block named `key` ("aws", "aws.us_east_1": ProviderKeyOfRecord of what the
//! plan or state recorded) that configures instances at `addr` (which config may no longer
//! declare): the nearest such block in its module or an enclosing one (the root when the
//! module is gone); kNoNode when there is none.
NodeId ProviderBlockFor(const StageGraph& graph, const ResourceInstanceAddr& addr, const std::string& key);

}  // namespace strata
