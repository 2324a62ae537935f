#pragma once
// EKS clusters: CreateCluster, DescribeCluster, ListClusters, DeleteCluster,
// UpdateClusterConfig and UpdateClusterVersion, and the cluster lookups the node group,
// add-on, update and tag handlers share. A cluster is CREATING until settings.cluster_delay
// has passed since its creation, then ACTIVE (UPDATING for cluster_delay after an update);
// after DeleteCluster it is DELETING for cluster_delay and then gone, with its add-ons and
// updates.

#include <optional>
#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

Response CreateCluster(ServiceContext& ctx);
Response DescribeCluster(ServiceContext& ctx, const std::string& name);
Response ListClusters(ServiceContext& ctx);
Response DeleteCluster(ServiceContext& ctx, const std::string& name);
Response UpdateClusterConfig(ServiceContext& ctx, const std::string& name);
Response UpdateClusterVersion(ServiceContext& ctx, const std::string& name);
//! POST /clusters/{name}/encryption-config/associate: secrets encryption for a cluster that
//! has none (an update of type AssociateEncryptionConfig).
Response AssociateEncryptionConfig(ServiceContext& ctx, const std::string& name);

//! The cluster's stored document in the call's region, or nullopt when there is none or it
//! has finished deleting (then it is erased, with its add-ons and updates).
std::optional<Json> LoadCluster(ServiceContext& ctx, const std::string& name);
//! As LoadCluster; ResourceNotFoundException "No cluster found for name: X." when missing.
Json RequireCluster(ServiceContext& ctx, const std::string& name);
//! The cluster as the API answers it, status and clock-derived fields included.
Json RenderCluster(const ServiceContext& ctx, const Json& doc);
void SaveCluster(ServiceContext& ctx, const Json& doc);

}  // namespace strata::sandbox::eks
