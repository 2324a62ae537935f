#pragma once
// EKS updates: the record of an in-place change to a cluster, a node group or an add-on
// (UpdateClusterConfig, UpdateClusterVersion, UpdateNodegroupConfig/Version, UpdateAddon).
// An update is InProgress until its delay has passed and Successful afterwards; it is kept
// until its cluster (or node group, add-on) is gone. DescribeUpdate, ListUpdates.

#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

//! What an update is about: the cluster alone, or one of its node groups or add-ons.
struct UpdateTarget {
  std::string cluster;
  std::string nodegroup;  //!< empty unless a node group's update
  std::string addon;      //!< empty unless an add-on's update
};

//! Records an update of `target` of `type` ("VersionUpdate", "ConfigUpdate", ...) with its
//! params ([{type, value}]) that succeeds after `delay`; returns its API shape.
Json StartUpdate(ServiceContext& ctx, const UpdateTarget& target, const std::string& type,
                 const Json& params, Millis delay);

//! Forgets the updates of `target`: with empty nodegroup and addon, every update of the
//! cluster; otherwise those of that node group or add-on.
void EraseUpdates(ServiceContext& ctx, const UpdateTarget& target);

//! GET /clusters/{name}/updates/{updateId}[?nodegroupName=|addonName=]
Response DescribeUpdate(ServiceContext& ctx, const std::string& cluster, const std::string& id);
//! GET /clusters/{name}/updates[?nodegroupName=|addonName=]
Response ListUpdates(ServiceContext& ctx, const std::string& cluster);

}  // namespace strata::sandbox::eks
