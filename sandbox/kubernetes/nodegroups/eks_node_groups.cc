// ClusterNodeGroups (sandbox/kubernetes/cluster_nodes.h): the node groups EKS keeps for a
// cluster, read as the cluster's nodes need them. Lives above the EKS service so that the
// Kubernetes API layer never includes its files.

#include <algorithm>

#include "sandbox/kubernetes/cluster_nodes.h"
#include "sandbox/services/eks/eks_common.h"
#include "sandbox/services/eks/eks_world_refs.h"
#include "sandbox/world.h"

namespace strata::sandbox::k8s {

std::vector<NodeGroupView> ClusterNodeGroups(World& world, const SandboxSettings& settings, const std::string& region,
                                             const std::string& cluster, std::chrono::system_clock::time_point now) {
  Request request;
  request.service = "eks";
  request.region = region;
  ServiceContext ctx{world, request, settings, now, "", ""};
  std::vector<NodeGroupView> groups;
  for (const auto& [key, doc] : world.List(eks::kNodegroupKind)) {
    if (doc.value("region", "") != region || doc.value("cluster", "") != cluster) continue;
    eks::Phase phase = eks::PhaseOf(ctx, doc);
    if (phase != eks::Phase::Active && phase != eks::Phase::Updating) continue;
    const Json& view = doc.at("view");
    NodeGroupView group;
    group.name = doc.value("name", "");
    group.desired_size = view["scalingConfig"].value("desiredSize", int64_t{0});
    if (view.contains("instanceTypes") && view["instanceTypes"].is_array() && !view["instanceTypes"].empty())
      group.instance_type = view["instanceTypes"][0].get<std::string>();
    group.capacity_type = view.value("capacityType", "ON_DEMAND");
    group.kubernetes_version = view.value("version", "1.31");
    if (view.contains("labels") && view["labels"].is_object())
      for (const auto& [k, v] : view["labels"].items())
        if (v.is_string()) group.labels[k] = v.get<std::string>();
    if (view.contains("taints")) group.taints = view["taints"];
    if (view.contains("subnets") && view["subnets"].is_array())
      for (const Json& subnet : view["subnets"])
        if (auto ref = eks::FindSubnet(ctx, subnet.get<std::string>()); ref && !ref->availability_zone.empty())
          group.zones.push_back(ref->availability_zone);
    groups.push_back(std::move(group));
  }
  std::sort(groups.begin(), groups.end(), [](const NodeGroupView& a, const NodeGroupView& b) { return a.name < b.name; });
  return groups;
}

}  // namespace strata::sandbox::k8s
