// EKS managed node groups (aws_eks_node_group): spot markers on on-demand groups, the
// cluster-autoscaler's node-template tags against the group's labels and taints, GPU types
// that one template cannot model, a lone spot GPU pool, versions behind the cluster, a cluster
// name that names no cluster of the project.
#include <fmt/format.h>

#include <map>
#include <set>

#include "engine/lint/instance_types.h"
#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

constexpr const char* kTemplateLabel = "k8s.io/cluster-autoscaler/node-template/label/";
constexpr const char* kTemplateTaint = "k8s.io/cluster-autoscaler/node-template/taint/";

bool OnDemand(const Instance& group) {
  const Value* capacity = ValueAt(*group.value, {"capacity_type"});
  if (!capacity || capacity->IsNull()) return true;  // EKS's default
  return capacity->IsString() && capacity->AsString() == "ON_DEMAND";
}

// Whether a label says "spot".
bool SpotLabel(const std::string& key, const std::string& value) {
  std::string v = LowerCase(value);
  if (key == "lifecycle" || key == "node.kubernetes.io/lifecycle") return v == "ec2spot" || v == "spot";
  if (key == "aws.amazon.com/spot") return v == "true";
  if (key == "eks.amazonaws.com/capacityType" || key == "karpenter.sh/capacity-type") return v == "spot";
  return false;
}

void SpotOnOnDemand(LintContext& ctx, const Instance& group) {
  if (!OnDemand(group)) return;
  if (const Value* labels = ValueAt(*group.value, {"labels"}); labels && labels->IsMapping()) {
    for (const auto& [key, value] : labels->AsMap()) {
      if (value.IsString() && SpotLabel(key, value.AsString())) {
        ctx.Report("nodegroup-spot-on-ondemand", group, {"labels", key},
                   fmt::format("the ON_DEMAND node group carries the spot label {}={}", key, value.AsString()));
      }
    }
  }
  if (const Value* taints = ValueAt(*group.value, {"taint"}); taints && taints->IsSequence()) {
    for (size_t i = 0; i < taints->AsList().size(); ++i) {
      auto key = StringAt(taints->AsList()[i], {"key"});
      if (key && (*key == "spotInstance" || *key == "spot")) {
        ctx.Report("nodegroup-spot-on-ondemand", group, {"taint", i, "key"},
                   fmt::format("the ON_DEMAND node group carries the spot taint {}", *key));
      }
    }
  }
}

// EKS's taint effect → Kubernetes' (what the autoscaler's tags take).
std::string KubeEffect(const std::string& eks) {
  if (eks == "NO_SCHEDULE") return "NoSchedule";
  if (eks == "NO_EXECUTE") return "NoExecute";
  if (eks == "PREFER_NO_SCHEDULE") return "PreferNoSchedule";
  return eks;
}

void TemplateTags(LintContext& ctx, const Instance& group) {
  const Value* tags = ValueAt(*group.value, {"tags"});
  if (!tags || !tags->IsMapping()) return;
  const Value* labels = ValueAt(*group.value, {"labels"});
  const Value* taints = ValueAt(*group.value, {"taint"});
  for (const auto& [key, value] : tags->AsMap()) {
    if (!value.IsString()) continue;
    if (key.rfind(kTemplateLabel, 0) == 0 && labels && labels->IsWhollyKnown()) {
      std::string label = key.substr(std::string(kTemplateLabel).size());
      auto actual = labels->IsMapping() ? StringAt(*labels, {label}) : std::nullopt;
      if (!actual || *actual != value.AsString()) {
        ctx.Report("nodegroup-template-mismatch", group, {"tags", key},
                   actual ? fmt::format("the node-template tag says {}={}, the group's label says {}", label,
                                        value.AsString(), *actual)
                          : fmt::format("the node-template tag says {}={}, the group has no label {}", label,
                                        value.AsString(), label));
      }
    } else if (key.rfind(kTemplateTaint, 0) == 0 && taints && taints->IsWhollyKnown()) {
      std::string taint = key.substr(std::string(kTemplateTaint).size());
      std::optional<std::string> actual;
      if (taints->IsSequence()) {
        for (const auto& t : taints->AsList()) {
          if (StringAt(t, {"key"}) == taint) {
            actual = fmt::format("{}:{}", StringAt(t, {"value"}).value_or(""), KubeEffect(StringAt(t, {"effect"}).value_or("")));
          }
        }
      }
      if (!actual || *actual != value.AsString()) {
        ctx.Report("nodegroup-template-mismatch", group, {"tags", key},
                   actual ? fmt::format("the node-template tag says taint {}={}, the group's taint is {}={}", taint,
                                        value.AsString(), taint, *actual)
                          : fmt::format("the node-template tag says taint {}={}, the group has no taint {}", taint,
                                        value.AsString(), taint));
      }
    }
  }
}

std::vector<std::string> InstanceTypes(const Instance& group) {
  std::vector<std::string> out;
  const Value* types = ValueAt(*group.value, {"instance_types"});
  if (!types || !types->IsWhollyKnown() || !types->IsSequence()) return out;
  for (const auto& t : types->AsList()) {
    if (t.IsString()) out.push_back(t.AsString());
  }
  return out;
}

void GpuCounts(LintContext& ctx, const Instance& group) {
  std::vector<std::string> types = InstanceTypes(group);
  std::optional<std::pair<std::string, int>> first;
  bool any_gpu = false;
  for (const auto& t : types) {
    if (auto shape = ShapeOf(t); shape && shape->gpus > 0) any_gpu = true;
  }
  if (!any_gpu) return;
  for (size_t i = 0; i < types.size(); ++i) {
    auto shape = ShapeOf(types[i]);
    if (!shape) continue;
    if (!first) {
      first = {types[i], shape->gpus};
    } else if (shape->gpus != first->second) {
      ctx.Report("nodegroup-gpu-count-mix", group, {"instance_types", i},
                 fmt::format("{} has {} GPUs and {} has {}: the autoscaler's one template for the group is wrong for one "
                             "of them",
                             types[i], shape->gpus, first->first, first->second));
      return;
    }
  }
}

void LoneSpotGpu(LintContext& ctx, const Instance& group, const std::map<std::string, int>& groups_of_type) {
  if (OnDemand(group)) return;
  std::vector<std::string> types = InstanceTypes(group);
  if (types.size() != 1) return;
  auto shape = ShapeOf(types[0]);
  if (!shape || shape->gpus == 0) return;
  const Value* subnets = ValueAt(*group.value, {"subnet_ids"});
  if (!subnets || !subnets->IsKnown() || !subnets->IsSequence() || subnets->AsList().size() != 1) return;
  if (groups_of_type.at(types[0]) > 1) return;  // another group (on-demand failover) offers the type
  ctx.Report("nodegroup-spot-gpu-single-az", group, {"instance_types", size_t{0}},
             fmt::format("the spot GPU group asks one type ({}) in one subnet, and no other group offers it: a spot "
                         "shortage there leaves GPU pods Pending",
                         types[0]));
}

void Versions(LintContext& ctx, const Instance& group) {
  // The version of the group's cluster (by name), else the project's.
  std::optional<std::string> cluster_version = ctx.model().ClusterVersion(group.component);
  if (auto cluster = StringAt(*group.value, {"cluster_name"})) {
    for (const Instance* c : ctx.model().OfType("aws_eks_cluster", group.component)) {
      if (StringAt(*c->value, {"name"}) == cluster) cluster_version = StringAt(*c->value, {"version"});
    }
  }
  if (!cluster_version) return;
  auto minor = [](const std::string& v) -> std::optional<int> {
    if (v.rfind("1.", 0) != 0) return std::nullopt;
    try {
      return std::stoi(v.substr(2));
    } catch (...) {
      return std::nullopt;
    }
  };
  auto cluster_minor = minor(*cluster_version);
  if (!cluster_minor) return;
  for (const char* field : {"version", "release_version"}) {
    auto v = StringAt(*group.value, {field});
    auto group_minor = v ? minor(*v) : std::nullopt;
    if (group_minor && *group_minor < *cluster_minor) {
      ctx.Report("nodegroup-version-older", group, {field},
                 fmt::format("the node group's {} {} is older than the cluster's Kubernetes {}", field, *v, *cluster_version));
      return;
    }
  }
}

// A group whose cluster_name names no cluster of the project joins nothing (the reference's
// m5spot file named cluster ml-us-west-2 in a project of ai-us-west-2).
void UnknownCluster(LintContext& ctx, const Instance& group, const std::set<std::string>& clusters) {
  auto name = StringAt(*group.value, {"cluster_name"});
  if (!name || clusters.empty() || clusters.count(*name)) return;
  ctx.Report("nodegroup-unknown-cluster", group, {"cluster_name"},
             fmt::format("the node group joins cluster {}, which the project does not declare ({})", *name,
                         fmt::join(clusters, ", ")));
}

}  // namespace

void CheckNodeGroups(LintContext& ctx) {
  for (int component : ctx.model().Components()) {
    auto groups = ctx.model().OfType("aws_eks_node_group", component);
    std::map<std::string, int> groups_of_type;
    std::set<std::string> clusters;  // the known names of the component's clusters
    bool unknown_cluster_name = false;
    for (const Instance* cluster : ctx.model().OfType("aws_eks_cluster", component)) {
      auto name = StringAt(*cluster->value, {"name"});
      if (name) clusters.insert(*name);
      unknown_cluster_name = unknown_cluster_name || !name;
    }
    if (unknown_cluster_name) clusters.clear();  // a cluster whose name is not known yet may be the one
    for (const Instance* group : groups) {
      for (const auto& t : InstanceTypes(*group)) groups_of_type[t] += 1;
    }
    for (const Instance* group : groups) {
      SpotOnOnDemand(ctx, *group);
      TemplateTags(ctx, *group);
      GpuCounts(ctx, *group);
      LoneSpotGpu(ctx, *group, groups_of_type);
      Versions(ctx, *group);
      UnknownCluster(ctx, *group, clusters);
    }
  }
}

}  // namespace strata::lint
