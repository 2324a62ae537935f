// The clusters the sandbox's kubeconfig names (sandbox/kubeconfig.h): exactly those
// DescribeCluster shows an endpoint for, with that endpoint.

#include "sandbox/kubeconfig.h"
#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_common.h"

namespace strata::sandbox {

std::vector<ServedCluster> ServedClusters(World& world, const SandboxSettings& settings,
                                          const std::string& cluster_endpoint_base,
                                          std::chrono::system_clock::time_point now) {
  Request request;  // the clusters of every region; no request is being answered
  ServiceContext ctx{world, request, settings, now, cluster_endpoint_base, ""};
  std::vector<ServedCluster> out;
  for (const auto& [key, doc] : world.List(eks::kClusterKind)) {
    if (eks::PhaseOf(ctx, doc) == eks::Phase::Gone) continue;
    Json view = eks::RenderCluster(ctx, doc);
    if (!view.contains("endpoint")) continue;  // still CREATING
    out.push_back({doc.at("name").get<std::string>(), doc.value("region", ""), view["endpoint"].get<std::string>()});
  }
  return out;
}

}  // namespace strata::sandbox
