#pragma once
// EKS managed node groups: CreateNodegroup, DescribeNodegroup, ListNodegroups,
// DeleteNodegroup, UpdateNodegroupConfig and UpdateNodegroupVersion. A node group is
// CREATING until settings.nodegroup_delay has passed, then ACTIVE; an update changes it at
// once and leaves it UPDATING for nodegroup_delay; a delete leaves it DELETING for
// nodegroup_delay, then it is gone.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

Response CreateNodegroup(ServiceContext& ctx, const std::string& cluster);
Response DescribeNodegroup(ServiceContext& ctx, const std::string& cluster,
                           const std::string& name);
Response ListNodegroups(ServiceContext& ctx, const std::string& cluster);
Response DeleteNodegroup(ServiceContext& ctx, const std::string& cluster, const std::string& name);
Response UpdateNodegroupConfig(ServiceContext& ctx, const std::string& cluster,
                               const std::string& name);
Response UpdateNodegroupVersion(ServiceContext& ctx, const std::string& cluster,
                                const std::string& name);

//! The node group's stored document, or nullopt when there is none or it has finished
//! deleting (then it is erased with its updates).
std::optional<Json> LoadNodegroup(ServiceContext& ctx, const std::string& cluster,
                                  const std::string& name);
//! The names of the cluster's node groups that still exist (deleting ones included).
std::vector<std::string> NodegroupNames(ServiceContext& ctx, const std::string& cluster);
//! The node group as the API answers it.
Json RenderNodegroup(const ServiceContext& ctx, const Json& doc);
void SaveNodegroup(ServiceContext& ctx, const Json& doc);

}  // namespace strata::sandbox::eks
