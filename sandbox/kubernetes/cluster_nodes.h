#pragma once
// The Nodes of an EKS cluster in the sandbox: one v1 Node for each instance its managed node
// groups run (desiredSize of each group that has nodes), as the kubelet registers them —
// the group's labels and taints, EKS's own labels, capacity from a small table of instance
// types (nvidia.com/gpu on GPU types), Ready True.
//
// The node groups are the EKS service's; this layer does not see it. ClusterNodeGroups is
// declared here and defined above EKS (sandbox/kubernetes/nodegroups/), as the cluster
// endpoint's authentication is.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sandbox/kubernetes/resource_type.h"
#include "sandbox/settings.h"

namespace strata::sandbox {
class World;
}

namespace strata::sandbox::k8s {

//! What a node group says about the nodes it runs.
struct NodeGroupView {
  std::string name;
  int64_t desired_size = 0;
  std::string instance_type = "t3.medium";  //!< the first of its instanceTypes
  std::string capacity_type = "ON_DEMAND";
  std::string kubernetes_version = "1.31";
  std::map<std::string, std::string> labels;
  //! EKS's shape: [{"key", "value", "effect": "NO_SCHEDULE" | "NO_EXECUTE" | "PREFER_NO_SCHEDULE"}].
  Json taints = Json::array();
  //! The availability zones of its subnets, in order (nodes are spread over them); empty:
  //! the region's "a" zone.
  std::vector<std::string> zones;
};

//! The node groups of cluster `cluster` in `region` that have nodes at `now` (ACTIVE or
//! UPDATING), by name.
std::vector<NodeGroupView> ClusterNodeGroups(World& world, const SandboxSettings& settings, const std::string& region,
                                             const std::string& cluster, std::chrono::system_clock::time_point now);

//! What an instance type offers a node.
struct InstanceCapacity {
  int64_t cpu = 2;
  int64_t memory_mib = 4096;
  int64_t gpus = 0;  //!< NVIDIA GPUs (g4dn, g5, g6, p3, p4d, p5 ...)
  int64_t max_pods = 17;
};
InstanceCapacity CapacityOf(const std::string& instance_type);

//! The Node objects `groups` run (metadata.name, labels, spec.taints, status), each named
//! "ip-10-<a>-<b>-<c>.<region>.compute.internal" ("ec2.internal" in us-east-1), stable for
//! the group and the node's index in it. Server-set metadata (uid, resourceVersion) is not
//! included.
std::vector<Json> NodesOf(const std::vector<NodeGroupView>& groups, const std::string& region, const std::string& now);

//! The nodegroup label EKS puts on a group's nodes ("eks.amazonaws.com/nodegroup"): the
//! sandbox's nodes are those that carry it.
inline constexpr const char* kNodegroupLabel = "eks.amazonaws.com/nodegroup";

}  // namespace strata::sandbox::k8s
