// The cluster-autoscaler against the node groups: its discovery tags, its --nodes bounds and
// its priority expander's patterns. Its container is any one whose image or command names
// cluster-autoscaler.
#include <fmt/format.h>
#include <re2/re2.h>

#include <set>

#include "engine/lint/iam_grants.h"
#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

constexpr const char* kAutoscalerTag = "k8s.io/cluster-autoscaler/";

struct AutoscalerArg {
  const KubeObject* object;
  Path path;
  std::string text;
};

// Every known argument (command and args) of every cluster-autoscaler container.
std::vector<AutoscalerArg> AutoscalerArgs(const ProjectModel& model) {
  std::vector<AutoscalerArg> out;
  for (const auto& o : model.objects) {
    for (const Path& spec_path : o.PodSpecs()) {
      const Value* containers = ValueAt(o.object, Join(spec_path, {"containers"}));
      for (size_t i = 0; containers && i < containers->AsList().size(); ++i) {
        const Value& c = containers->AsList()[i];
        Path c_path = Join(spec_path, {"containers", i});
        bool named = StringAt(c, {"image"}).value_or("").find("cluster-autoscaler") != std::string::npos;
        std::vector<AutoscalerArg> args;
        for (const char* field : {"command", "args"}) {
          const Value* list = ValueAt(c, {field});
          if (!list || !list->IsSequence()) continue;
          for (size_t j = 0; j < list->AsList().size(); ++j) {
            const Value& a = list->AsList()[j];
            if (!a.IsString()) continue;
            if (a.AsString().find("cluster-autoscaler") != std::string::npos && a.AsString().rfind("--", 0) != 0) named = true;
            args.push_back({&o, Join(c_path, {field, j}), a.AsString()});
          }
        }
        if (named) out.insert(out.end(), args.begin(), args.end());
      }
    }
  }
  return out;
}

// The tags the project's Auto Scaling groups carry for sure: EKS's two on every managed node
// group's, and those declared with aws_autoscaling_group_tag.
std::set<std::string> KnownGroupTags(const ProjectModel& model, int component) {
  std::set<std::string> tags;
  for (const Instance* group : model.OfType("aws_eks_node_group", component)) {
    tags.insert(std::string(kAutoscalerTag) + "enabled");
    if (auto cluster = StringAt(*group->value, {"cluster_name"})) tags.insert(kAutoscalerTag + *cluster);
  }
  for (const Instance* tag : model.OfType("aws_autoscaling_group_tag", component)) {
    if (auto key = StringAt(*tag->value, {"tag", size_t{0}, "key"})) tags.insert(*key);
  }
  for (const Instance* asg : model.OfType("aws_autoscaling_group", component)) {
    const Value* list = ValueAt(*asg->value, {"tag"});
    for (size_t i = 0; list && list->IsSequence() && i < list->AsList().size(); ++i) {
      if (auto key = StringAt(list->AsList()[i], {"key"})) tags.insert(*key);
    }
  }
  return tags;
}

void Discovery(LintContext& ctx, const AutoscalerArg& arg, const std::set<std::string>& known) {
  const std::string flag = "--node-group-auto-discovery=asg:tag=";
  if (arg.text.rfind(flag, 0) != 0) return;
  std::vector<std::string> keys;
  std::string list = arg.text.substr(flag.size());
  for (size_t start = 0; start <= list.size();) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    keys.push_back(item.substr(0, item.find('=')));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  bool cluster_scoped = false;
  for (const auto& key : keys) {
    if (key.rfind(kAutoscalerTag, 0) == 0 && key != std::string(kAutoscalerTag) + "enabled") cluster_scoped = true;
    if (!known.empty() && !known.count(key)) {
      ctx.Report("autoscaler-discovery", *arg.object, arg.path,
                 fmt::format("discovery tag {} is on no Auto Scaling group of the project: the autoscaler finds no group "
                             "to scale",
                             key));
      return;
    }
  }
  if (!cluster_scoped) {
    ctx.Report("autoscaler-discovery", *arg.object, arg.path,
               "discovery without the cluster's own tag adopts the groups of every cluster in the account and region");
  }
}

void NodesBounds(LintContext& ctx, const AutoscalerArg& arg) {
  const std::string flag = "--nodes=";
  if (arg.text.rfind(flag, 0) != 0) return;
  std::string spec = arg.text.substr(flag.size());
  size_t a = spec.find(':');
  size_t b = a == std::string::npos ? a : spec.find(':', a + 1);
  if (b == std::string::npos) return;
  std::string name = spec.substr(b + 1);
  int min = 0, max = 0;
  try {
    min = std::stoi(spec.substr(0, a));
    max = std::stoi(spec.substr(a + 1, b - a - 1));
  } catch (...) {
    return;
  }
  // The group whose name the ASG name holds (EKS names it eks-<group>-<uuid>); the longest wins.
  const Instance* match = nullptr;
  std::string matched;
  for (const Instance* group : ctx.model().OfType("aws_eks_node_group", arg.object->instance->component)) {
    auto group_name = StringAt(*group->value, {"node_group_name"});
    if (group_name && name.find(*group_name) != std::string::npos && group_name->size() > matched.size()) {
      match = group;
      matched = *group_name;
    }
  }
  if (!match) return;
  auto group_min = NumberAt(*match->value, {"scaling_config", size_t{0}, "min_size"});
  auto group_max = NumberAt(*match->value, {"scaling_config", size_t{0}, "max_size"});
  if (!group_min || !group_max || (*group_min == min && *group_max == max)) return;
  ctx.Report("autoscaler-nodes-bounds", *arg.object, arg.path,
             fmt::format("--nodes says {}:{} for node group {}, whose sizes are {}:{}", min, max, matched,
                         FormatNumber(*group_min), FormatNumber(*group_max)));
}

// Names a priority pattern may match: each node group's name, the name EKS gives its ASG,
// and the names of the project's own Auto Scaling groups.
std::vector<std::string> GroupNames(const ProjectModel& model, int component) {
  std::vector<std::string> names;
  for (const Instance* group : model.OfType("aws_eks_node_group", component)) {
    if (auto name = StringAt(*group->value, {"node_group_name"})) {
      names.push_back(*name);
      names.push_back("eks-" + *name + "-0ac6a2d4-0000-0000-0000-000000000000");
    }
    if (auto asg = StringAt(*group->value, {"resources", size_t{0}, "autoscaling_groups", size_t{0}, "name"})) names.push_back(*asg);
  }
  for (const Instance* asg : model.OfType("aws_autoscaling_group", component)) {
    if (auto name = StringAt(*asg->value, {"name"})) names.push_back(*name);
  }
  return names;
}

void PriorityExpander(LintContext& ctx) {
  for (const auto& o : ctx.model().objects) {
    if (o.kind != "ConfigMap" || o.name != "cluster-autoscaler-priority-expander") continue;
    std::vector<std::string> names = GroupNames(ctx.model(), o.instance->component);
    if (names.empty()) continue;
    auto priorities = StringAt(o.object, {"data", "priorities"});
    if (!priorities) continue;
    std::string text = *priorities;
    int line_index = -1;
    for (size_t start = 0; start < text.size();) {
      ++line_index;
      size_t end = text.find('\n', start);
      std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      start = end == std::string::npos ? text.size() : end + 1;
      size_t dash = line.find_first_not_of(' ');
      if (dash == std::string::npos || line[dash] != '-') continue;
      std::string pattern = line.substr(dash + 1);
      pattern.erase(0, pattern.find_first_not_of(' '));
      while (!pattern.empty() && (pattern.back() == ' ' || pattern.back() == '\r')) pattern.pop_back();
      if (pattern.size() >= 2 && (pattern[0] == '"' || pattern[0] == '\'') && pattern.back() == pattern[0]) {
        pattern = pattern.substr(1, pattern.size() - 2);
      }
      if (pattern.empty() || pattern == ".*") continue;
      RE2 re(pattern, RE2::Quiet);
      bool matches = false;
      for (const auto& name : names) matches = matches || (re.ok() && RE2::PartialMatch(name, re));
      if (!matches) {
        ctx.ReportLine("autoscaler-priority-unknown-group", o, {"data", "priorities"}, line_index,
                       fmt::format("priority pattern {} matches no node group of the project", pattern));
      }
    }
  }
}

// A cluster-autoscaler needs autoscaling:SetDesiredCapacity (and TerminateInstanceInAutoScalingGroup)
// from some IAM policy of its deployment: its IRSA role's or the nodes'.
void AutoscalerPermissions(LintContext& ctx, const std::vector<AutoscalerArg>& args) {
  std::set<int> checked;
  for (const auto& arg : args) {
    const KubeObject& o = *arg.object;
    int component = o.instance->component;
    if (!checked.insert(component).second) continue;
    bool unknown = false;
    bool granted = InstancesGrant(IamInstances(ctx.model(), component),
                                  {"autoscaling:SetDesiredCapacity", "autoscaling:*", "AutoScalingFullAccess"}, unknown);
    if (granted || unknown) continue;
    Path container(arg.path.begin(), arg.path.end() - 2);  // .../containers/i
    ctx.Report("autoscaler-iam", o, Join(container, {"image"}),
               fmt::format("no IAM policy of the deployment grants autoscaling:SetDesiredCapacity: {} cannot scale any "
                           "group",
                           o.Identity()));
  }
}

}  // namespace

void CheckAutoscaler(LintContext& ctx) {
  AutoscalerPermissions(ctx, AutoscalerArgs(ctx.model()));
  for (const auto& arg : AutoscalerArgs(ctx.model())) {
    Discovery(ctx, arg, KnownGroupTags(ctx.model(), arg.object->instance->component));
    NodesBounds(ctx, arg);
  }
  PriorityExpander(ctx);
}

}  // namespace strata::lint
