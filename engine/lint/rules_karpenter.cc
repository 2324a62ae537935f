// Karpenter's discovery against the project's clusters: a node class (EC2NodeClass of
// karpenter.k8s.aws/v1, AWSNodeTemplate of v1alpha1) selecting its subnets or security
// groups by a `karpenter.sh/discovery` tag that names no EKS cluster of the project finds
// nothing to launch into (the reference discovered `ai-usw2` in cluster `ai-us-west-2`).
#include <fmt/format.h>

#include <set>

#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

constexpr const char* kKarpenterDiscoveryKey = "karpenter.sh/discovery";

// The known names of the component's EKS clusters.
std::set<std::string> KarpenterClusterNames(const ProjectModel& model, int component) {
  std::set<std::string> names;
  for (const Instance* cluster : model.OfType("aws_eks_cluster", component)) {
    if (auto name = StringAt(*cluster->value, {"name"})) names.insert(*name);
  }
  return names;
}

// Where `o` selects by the discovery tag: v1's selector terms, v1alpha1's selector maps.
std::vector<Path> DiscoverySelectors(const KubeObject& o) {
  std::vector<Path> out;
  if (o.kind == "EC2NodeClass") {
    for (const char* terms : {"subnetSelectorTerms", "securityGroupSelectorTerms"}) {
      const Value* list = ValueAt(o.object, {"spec", terms});
      for (size_t i = 0; list && list->IsSequence() && i < list->AsList().size(); ++i) {
        Path at = {"spec", terms, i, "tags", kKarpenterDiscoveryKey};
        if (StringAt(o.object, at)) out.push_back(at);
      }
    }
  } else if (o.kind == "AWSNodeTemplate") {
    for (const char* selector : {"subnetSelector", "securityGroupSelector"}) {
      Path at = {"spec", selector, kKarpenterDiscoveryKey};
      if (StringAt(o.object, at)) out.push_back(at);
    }
  }
  return out;
}

}  // namespace

void CheckKarpenter(LintContext& ctx) {
  for (const KubeObject& o : ctx.model().objects) {
    if (o.typed || o.api_version.rfind("karpenter.k8s.aws/", 0) != 0) continue;
    std::vector<Path> selectors = DiscoverySelectors(o);
    if (selectors.empty()) continue;
    std::set<std::string> clusters = KarpenterClusterNames(ctx.model(), o.instance->component);
    if (clusters.empty()) continue;  // no cluster of the project to compare with
    for (const Path& at : selectors) {
      std::string value = *StringAt(o.object, at);
      if (clusters.count(value)) continue;
      ctx.Report("karpenter-discovery", o, at,
                 fmt::format("{} {} discovers {}={}, which names no EKS cluster of the project ({})", o.kind, o.name,
                             kKarpenterDiscoveryKey, value, fmt::join(clusters, ", ")));
    }
  }
}

}  // namespace strata::lint
