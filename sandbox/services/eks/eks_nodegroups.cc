#include "sandbox/services/eks/eks_nodegroups.h"

#include <algorithm>
#include <map>
#include <set>

#include "sandbox/services/autoscaling/autoscaling_groups.h"
#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_common.h"
#include "sandbox/services/eks/eks_updates.h"
#include "sandbox/services/eks/eks_world_refs.h"

namespace strata::sandbox::eks {

namespace {

const std::set<std::string> kAmiTypes = {"AL2_x86_64",
                                         "AL2_x86_64_GPU",
                                         "AL2_ARM_64",
                                         "CUSTOM",
                                         "BOTTLEROCKET_ARM_64",
                                         "BOTTLEROCKET_x86_64",
                                         "BOTTLEROCKET_ARM_64_NVIDIA",
                                         "BOTTLEROCKET_x86_64_NVIDIA",
                                         "WINDOWS_CORE_2019_x86_64",
                                         "WINDOWS_FULL_2019_x86_64",
                                         "WINDOWS_CORE_2022_x86_64",
                                         "WINDOWS_FULL_2022_x86_64",
                                         "AL2023_x86_64_STANDARD",
                                         "AL2023_ARM_64_STANDARD",
                                         "AL2023_x86_64_NEURON",
                                         "AL2023_x86_64_NVIDIA",
                                         "AL2023_ARM_64_NVIDIA"};
const std::set<std::string> kCapacityTypes = {"ON_DEMAND", "SPOT", "CAPACITY_BLOCK"};
const std::set<std::string> kTaintEffects = {"NO_SCHEDULE", "NO_EXECUTE", "PREFER_NO_SCHEDULE"};

//! The AMI release EKS would pick for a Kubernetes version.
std::string DefaultReleaseVersion(const std::string& version) {
  static const std::map<std::string, std::string> kReleases = {
      {"1.28", "1.28.15-20250116"}, {"1.29", "1.29.13-20250116"}, {"1.30", "1.30.9-20250116"},
      {"1.31", "1.31.5-20250116"},  {"1.32", "1.32.0-20250116"},  {"1.33", "1.33.0-20250601"}};
  auto it = kReleases.find(version);
  return it == kReleases.end() ? version + ".0-20250116" : it->second;
}

//! EKS's AMI type for a node group that names none: Amazon Linux 2023 from Kubernetes 1.30
//! on, Amazon Linux 2 before.
std::string DefaultAmiType(const std::string& version) {
  return MinorOf(version) >= 30 ? "AL2023_x86_64_STANDARD" : "AL2_x86_64";
}

//! Amazon Linux 2 AMIs are published up to Kubernetes 1.32: EKS refuses AL2 types after.
void CheckAmiTypeForVersion(const std::string& ami, const std::string& version) {
  if (ami.rfind("AL2_", 0) == 0 && MinorOf(version) >= 33) {
    ThrowInvalidParameter("AMI Type " + ami + " is only supported for kubernetes versions 1.32 or earlier. Use an "
                          "AL2023 or Bottlerocket AMI type for version " + version + ".");
  }
}

std::string NodegroupNotFound(const std::string& name) {
  return "No node group found for name: " + name + ".";
}

void CheckScaling(int64_t min, int64_t max, int64_t desired) {
  auto s = [](int64_t n) { return std::to_string(n); };
  if (min < 0) ThrowInvalidParameter("Minimum capacity " + s(min) + " must be at least 0");
  if (max < 1) ThrowInvalidParameter("Maximum capacity " + s(max) + " must be at least 1");
  if (desired < 0) ThrowInvalidParameter("Desired capacity " + s(desired) + " must be at least 0");
  if (min > max) {
    ThrowInvalidParameter("Minimum capacity " + s(min) + " can't be greater than max size " +
                          s(max));
  }
  if (desired > max) {
    ThrowInvalidParameter("Desired capacity " + s(desired) + " can't be greater than max size " +
                          s(max));
  }
  if (desired < min) {
    ThrowInvalidParameter("Minimum capacity " + s(min) + " can't be greater than desired size " +
                          s(desired));
  }
}

//! The scaling config after `request` (all members optional) is applied to `current`.
Json MergedScaling(const Json& current, const Json& request) {
  const std::string label = "scalingConfig.";
  int64_t min =
      OptionalInt(request, "minSize", label).value_or(current.at("minSize").get<int64_t>());
  int64_t max =
      OptionalInt(request, "maxSize", label).value_or(current.at("maxSize").get<int64_t>());
  int64_t desired =
      OptionalInt(request, "desiredSize", label).value_or(current.at("desiredSize").get<int64_t>());
  CheckScaling(min, max, desired);
  return Json{{"minSize", min}, {"maxSize", max}, {"desiredSize", desired}};
}

Json CheckedTaint(const Json& taint, const std::string& label, bool effect_required) {
  if (!taint.is_object()) ThrowInvalidParameter(label + " entries must be objects.");
  std::string key = RequiredString(taint, "key", label + ".");
  Json out = {{"key", key}};
  if (auto value = OptionalString(taint, "value", label + ".")) out["value"] = *value;
  std::optional<std::string> effect = OptionalString(taint, "effect", label + ".");
  if (!effect && effect_required) ThrowInvalidParameter(label + ".effect is required.");
  if (effect) {
    if (!kTaintEffects.count(*effect)) {
      ThrowInvalidParameter("Taint effect " + *effect +
                            " is not valid: use NO_SCHEDULE, NO_EXECUTE or PREFER_NO_SCHEDULE.");
    }
    out["effect"] = *effect;
  }
  return out;
}

Json CheckedTaints(const Json* taints, const std::string& label, bool effect_required) {
  Json out = Json::array();
  if (taints == nullptr) return out;
  if (taints->size() > 50) ThrowInvalidParameter("A node group can have at most 50 taints.");
  for (const Json& taint : *taints) out.push_back(CheckedTaint(taint, label, effect_required));
  return out;
}

bool SameTaint(const Json& a, const Json& b) {
  return a.at("key") == b.at("key") &&
         (!b.contains("effect") || a.value("effect", "") == b.at("effect"));
}

Json CheckedLabels(const std::map<std::string, std::string>& labels) {
  Json out = Json::object();
  for (const auto& [key, value] : labels) {
    if (key.empty() || key.size() > 317)
      ThrowInvalidParameter("Label key '" + key + "' is not valid.");
    if (value.size() > 63)
      ThrowInvalidParameter("Label value for key '" + key + "' exceeds 63 characters.");
    out[key] = value;
  }
  return out;
}

Json CheckedUpdateConfig(const Json* request) {
  if (request == nullptr) return Json{{"maxUnavailable", 1}};
  const std::string label = "updateConfig.";
  std::optional<int64_t> count = OptionalInt(*request, "maxUnavailable", label);
  std::optional<int64_t> percent = OptionalInt(*request, "maxUnavailablePercentage", label);
  if (count && percent) {
    ThrowInvalidParameter("Only one of maxUnavailable and maxUnavailablePercentage may be set.");
  }
  if (percent) {
    if (*percent < 1 || *percent > 100) {
      ThrowInvalidParameter("maxUnavailablePercentage must be between 1 and 100.");
    }
    return Json{{"maxUnavailablePercentage", *percent}};
  }
  int64_t value = count.value_or(1);
  if (value < 1 || value > 100) ThrowInvalidParameter("maxUnavailable must be between 1 and 100.");
  return Json{{"maxUnavailable", value}};
}

void CheckNodeRole(const ServiceContext& ctx, const std::string& role_arn) {
  CheckRoleArnShape(role_arn);
  if (!RoleExists(ctx, role_arn))
    ThrowInvalidParameter("Role with arn: " + role_arn + ", does not exist");
}

void CheckNodegroupSubnets(const ServiceContext& ctx, const std::vector<std::string>& subnets,
                           const std::string& cluster_vpc) {
  if (subnets.empty()) ThrowInvalidParameter("subnets is required.");
  for (const std::string& id : subnets) {
    std::optional<SubnetRef> subnet = FindSubnet(ctx, id);
    if (!subnet) ThrowInvalidParameter("The subnet ID '" + id + "' does not exist");
    if (!cluster_vpc.empty() && subnet->vpc_id != cluster_vpc) {
      ThrowInvalidParameter("Subnet " + id + " is not in the cluster's VPC " + cluster_vpc + ".");
    }
  }
}

//! A node group version: the cluster's by default, never newer than it.
std::string CheckedVersion(const std::optional<std::string>& requested,
                           const std::string& cluster_version) {
  std::string version = requested.value_or(cluster_version);
  int minor = MinorOf(version);
  if (minor < 0 || version.compare(0, 2, "1.") != 0 || minor > MinorOf(cluster_version) ||
      minor < MinorOf(cluster_version) - 3) {
    ThrowInvalidParameter("Requested Nodegroup version " + version +
                          " is invalid: it must be the cluster's version " + cluster_version +
                          " or at most three minor versions older.");
  }
  return version;
}

//! The launch template a node group's `launchTemplate` ({id | name, version}) names, which EC2
//! must have at that version (its default when none is given). `current_id`: on an update,
//! the node group's own template, which the request may not change.
LaunchTemplateRef CheckedLaunchTemplate(const ServiceContext& ctx, const Json& request, const std::string& current_id) {
  const std::string label = "launchTemplate.";
  std::string id = OptionalString(request, "id", label).value_or("");
  std::string name = OptionalString(request, "name", label).value_or("");
  std::string version = OptionalString(request, "version", label).value_or("");
  if (id.empty() == name.empty()) {
    ThrowInvalidParameter("Either provide launch template ID or launch template name in the request.");
  }
  std::optional<LaunchTemplateRef> ref = FindLaunchTemplate(ctx, id, name, version);
  if (!ref) ThrowInvalidParameter("Launch template " + (id.empty() ? name : id) + " does not exist.");
  if (!ref->version_found) {
    ThrowInvalidParameter("Launch template " + ref->id + " has no version " + version + ".");
  }
  if (!current_id.empty() && ref->id != current_id) {
    ThrowInvalidParameter("A node group's launch template cannot be changed: it uses " + current_id + ".");
  }
  return *ref;
}

Json TemplateView(const LaunchTemplateRef& ref) {
  return Json{{"name", ref.name}, {"version", ref.version}, {"id", ref.id}};
}

//! remoteAccess {ec2SshKey, sourceSecurityGroups}: the groups must exist, and need a key.
Json CheckedRemoteAccess(const ServiceContext& ctx, const Json& request) {
  const std::string label = "remoteAccess.";
  Json out = Json::object();
  std::optional<std::string> key = OptionalString(request, "ec2SshKey", label);
  std::vector<std::string> groups =
      OptionalStringList(request, "sourceSecurityGroups", label).value_or(std::vector<std::string>{});
  if (!groups.empty() && !key) ThrowInvalidParameter("Source security groups cannot be specified without an ec2SshKey.");
  for (const std::string& group : groups) {
    if (!SecurityGroupExists(ctx, group)) ThrowInvalidParameter("The security group '" + group + "' does not exist");
  }
  if (key) out["ec2SshKey"] = *key;
  if (!groups.empty()) out["sourceSecurityGroups"] = groups;
  return out;
}

Json NewNodegroupDoc(ServiceContext& ctx, const Json& body, const Json& cluster,
                     const std::string& name) {
  const Json& cluster_view = cluster.at("view");
  std::string cluster_name = cluster.at("name").get<std::string>();
  std::string node_role = RequiredString(body, "nodeRole");
  CheckNodeRole(ctx, node_role);
  std::vector<std::string> subnets =
      OptionalStringList(body, "subnets").value_or(std::vector<std::string>{});
  CheckNodegroupSubnets(ctx, subnets, cluster_view["resourcesVpcConfig"].value("vpcId", ""));

  Json scaling = {{"minSize", 1}, {"maxSize", 2}, {"desiredSize", 2}};
  if (const Json* request = OptionalObject(body, "scalingConfig")) {
    // Members left out default to 1 / 2 / 2, the desired size kept within the bounds given.
    const std::string label = "scalingConfig.";
    int64_t min = OptionalInt(*request, "minSize", label).value_or(1);
    int64_t max = OptionalInt(*request, "maxSize", label).value_or(std::max<int64_t>(2, min));
    int64_t desired = OptionalInt(*request, "desiredSize", label)
                          .value_or(min <= max ? std::clamp<int64_t>(2, min, max) : min);
    CheckScaling(min, max, desired);
    scaling = {{"minSize", min}, {"maxSize", max}, {"desiredSize", desired}};
  }
  std::string capacity = OptionalString(body, "capacityType").value_or("ON_DEMAND");
  if (!kCapacityTypes.count(capacity)) {
    ThrowInvalidParameter("capacityType " + capacity +
                          " is not valid: use ON_DEMAND, SPOT or CAPACITY_BLOCK.");
  }
  std::string version =
      CheckedVersion(OptionalString(body, "version"), cluster_view["version"].get<std::string>());
  std::optional<std::string> requested_ami = OptionalString(body, "amiType");
  std::string ami = requested_ami.value_or(DefaultAmiType(version));
  if (!kAmiTypes.count(ami)) ThrowInvalidParameter("amiType " + ami + " is not valid.");
  CheckAmiTypeForVersion(ami, version);
  std::optional<std::vector<std::string>> requested_types = OptionalStringList(body, "instanceTypes");
  std::vector<std::string> instance_types = requested_types.value_or(std::vector<std::string>{"t3.medium"});
  if (instance_types.empty()) instance_types = {"t3.medium"};
  std::string release =
      OptionalString(body, "releaseVersion").value_or(DefaultReleaseVersion(version));
  const Json* launch_template = OptionalObject(body, "launchTemplate");
  std::optional<LaunchTemplateRef> template_ref;
  if (launch_template) {
    template_ref = CheckedLaunchTemplate(ctx, *launch_template, "");
    if (template_ref->has_instance_type && requested_types && !requested_types->empty()) {
      ThrowInvalidParameter("Instance types cannot be specified both in the launch template and in the node group's instanceTypes.");
    }
    if (template_ref->has_image_id) {
      if (requested_ami && ami != "CUSTOM") {
        ThrowInvalidParameter("You cannot specify an AMI type other than CUSTOM when the launch template specifies an image id.");
      }
      ami = "CUSTOM";
    }
    if (OptionalObject(body, "remoteAccess")) {
      ThrowInvalidParameter("Remote access configuration cannot be specified with a launch template.");
    }
  }
  if (ami == "CUSTOM" && !(template_ref && template_ref->has_image_id)) {
    ThrowInvalidParameter("amiType CUSTOM needs a launch template that specifies an image id.");
  }
  std::optional<int64_t> disk = OptionalInt(body, "diskSize");
  if (launch_template && disk) {
    ThrowInvalidParameter("Disk size must be specified within the launch template.");
  }
  if (disk && (*disk < 1 || *disk > 16384))
    ThrowInvalidParameter("diskSize must be between 1 and 16384.");

  std::string uuid = ctx.world.NewUuid();
  double now = NowEpoch(ctx);
  Json view = {
      {"nodegroupName", name},
      {"nodegroupArn", EksArn(ctx, "nodegroup/" + cluster_name + "/" + name + "/" + uuid)},
      {"clusterName", cluster_name},
      {"version", version},
      {"releaseVersion", release},
      {"createdAt", now},
      {"modifiedAt", now},
      {"capacityType", capacity},
      {"scalingConfig", scaling},
      {"subnets", subnets},
      {"amiType", ami},
      {"nodeRole", node_role},
      {"labels",
       CheckedLabels(
           OptionalStringMap(body, "labels").value_or(std::map<std::string, std::string>{}))},
      {"taints", CheckedTaints(OptionalArray(body, "taints"), "taints", true)},
      {"resources", {{"autoScalingGroups", Json::array({{{"name", "eks-" + name + "-" + uuid}}})}}},
      {"health", {{"issues", Json::array()}}},
      {"updateConfig", CheckedUpdateConfig(OptionalObject(body, "updateConfig"))},
      {"tags",
       CheckedTags(OptionalStringMap(body, "tags").value_or(std::map<std::string, std::string>{}),
                   "InvalidParameterException")}};
  // A launch template that names the instance type leaves the node group without instanceTypes.
  if (!(template_ref && template_ref->has_instance_type)) view["instanceTypes"] = instance_types;
  if (template_ref) {
    view["launchTemplate"] = TemplateView(*template_ref);
  } else {
    view["diskSize"] = disk.value_or(20);
  }
  if (const Json* remote = OptionalObject(body, "remoteAccess")) view["remoteAccess"] = CheckedRemoteAccess(ctx, *remote);
  if (auto token = OptionalString(body, "clientRequestToken")) view["clientRequestToken"] = *token;
  return Json{{"region", Region(ctx)},
              {"cluster", cluster_name},
              {"name", name},
              {"lifecycle", NewLifecycle(ctx, ctx.settings.nodegroup_delay)},
              {"view", view}};
}

std::string AutoScalingGroupName(const Json& doc) {
  return doc.at("view").at("resources").at("autoScalingGroups").at(0).at("name").get<std::string>();
}

//! The node group's Auto Scaling group, made as EKS makes it: EKS's tags (which the
//! cluster-autoscaler's auto-discovery reads), the group's subnets and their zones, its
//! instance types over its launch template (EKS's own "eks-<uuid>" when none is given).
void MakeAutoScalingGroup(ServiceContext& ctx, const Json& doc) {
  const Json& view = doc.at("view");
  std::string cluster = doc.at("cluster").get<std::string>();
  autoscaling::GroupSpec spec;
  spec.name = AutoScalingGroupName(doc);
  spec.min_size = view["scalingConfig"]["minSize"].get<int64_t>();
  spec.max_size = view["scalingConfig"]["maxSize"].get<int64_t>();
  spec.desired_capacity = view["scalingConfig"]["desiredSize"].get<int64_t>();
  spec.subnet_ids = view["subnets"].get<std::vector<std::string>>();
  for (const std::string& id : spec.subnet_ids) {
    std::optional<SubnetRef> subnet = FindSubnet(ctx, id);
    if (subnet && std::find(spec.availability_zones.begin(), spec.availability_zones.end(),
                            subnet->availability_zone) == spec.availability_zones.end()) {
      spec.availability_zones.push_back(subnet->availability_zone);
    }
  }
  spec.instance_types = view["instanceTypes"].get<std::vector<std::string>>();
  spec.spot = view["capacityType"] == "SPOT";
  if (view.contains("launchTemplate")) {
    const Json& given = view["launchTemplate"];
    const std::pair<const char*, const char*> kFields[] = {
        {"id", "LaunchTemplateId"}, {"name", "LaunchTemplateName"}, {"version", "Version"}};
    for (const auto& [member, field] : kFields) {
      if (given.contains(member)) spec.launch_template[field] = given[member];
    }
  } else {
    std::string uuid = spec.name.substr(spec.name.size() - 36);
    spec.launch_template = {{"LaunchTemplateName", "eks-" + uuid}, {"Version", "1"}};
  }
  spec.tags = {{"eks:cluster-name", cluster},
               {"eks:nodegroup-name", doc.at("name").get<std::string>()},
               {"k8s.io/cluster-autoscaler/enabled", "true"},
               {"k8s.io/cluster-autoscaler/" + cluster, "owned"},
               {"kubernetes.io/cluster/" + cluster, "owned"}};
  autoscaling::CreateGroup(ctx, spec);
}

Json NodegroupAnswer(const ServiceContext& ctx, const Json& doc) {
  Json view = RenderNodegroup(ctx, doc);
  view.erase("clientRequestToken");
  return Json{{"nodegroup", view}};
}

Json RequireNodegroup(ServiceContext& ctx, const std::string& cluster, const std::string& name) {
  RequireCluster(ctx, cluster);
  std::optional<Json> doc = LoadNodegroup(ctx, cluster, name);
  if (!doc) ThrowNotFound(NodegroupNotFound(name));
  return *doc;
}

Json RequireUpdatableNodegroup(ServiceContext& ctx, const std::string& cluster,
                               const std::string& name) {
  Json doc = RequireNodegroup(ctx, cluster, name);
  if (PhaseOf(ctx, doc) != Phase::Active) {
    ThrowInUse("Nodegroup cannot be updated as it is currently not in Active State");
  }
  return doc;
}

void ApplyLabelChanges(Json& view, const Json& request, Json& params) {
  const std::string label = "labels.";
  auto add = OptionalStringMap(request, "addOrUpdateLabels", label);
  auto remove = OptionalStringList(request, "removeLabels", label);
  if (add) {
    Json checked = CheckedLabels(*add);
    for (const auto& [key, value] : checked.items()) view["labels"][key] = value;
    params.push_back(UpdateParam("LabelsToAdd", Json(*add).dump()));
  }
  if (remove) {
    for (const std::string& key : *remove) {
      if (add && add->count(key))
        ThrowInvalidParameter("The label " + key + " is both added and removed.");
      view["labels"].erase(key);
    }
    params.push_back(UpdateParam("LabelsToRemove", Json(*remove).dump()));
  }
}

void ApplyTaintChanges(Json& view, const Json& request, Json& params) {
  const Json* add = OptionalArray(request, "addOrUpdateTaints", "taints.");
  const Json* remove = OptionalArray(request, "removeTaints", "taints.");
  Json& taints = view["taints"];
  if (add) {
    Json checked = CheckedTaints(add, "taints.addOrUpdateTaints", true);
    for (const Json& taint : checked) {
      auto same = std::find_if(taints.begin(), taints.end(),
                               [&](const Json& t) { return SameTaint(t, taint); });
      if (same != taints.end()) {
        *same = taint;
      } else {
        taints.push_back(taint);
      }
    }
    if (taints.size() > 50) ThrowInvalidParameter("A node group can have at most 50 taints.");
    params.push_back(UpdateParam("TaintsToAdd", checked.dump()));
  }
  if (remove) {
    Json checked = CheckedTaints(remove, "taints.removeTaints", false);
    Json kept = Json::array();
    for (const Json& taint : taints) {
      bool removed = std::any_of(checked.begin(), checked.end(),
                                 [&](const Json& r) { return SameTaint(taint, r); });
      if (!removed) kept.push_back(taint);
    }
    taints = kept;
    params.push_back(UpdateParam("TaintsToRemove", checked.dump()));
  }
}

void ApplyScalingChanges(Json& view, const Json& request, Json& params) {
  view["scalingConfig"] = MergedScaling(view["scalingConfig"], request);
  for (const auto& [member, type] : std::vector<std::pair<std::string, std::string>>{
           {"minSize", "MinSize"}, {"maxSize", "MaxSize"}, {"desiredSize", "DesiredSize"}}) {
    if (request.contains(member)) {
      params.push_back(
          UpdateParam(type, std::to_string(view["scalingConfig"][member].get<int64_t>())));
    }
  }
}

Json NodegroupUpdateAnswer(ServiceContext& ctx, Json& doc, const std::string& type, const Json& params) {
  doc["view"]["modifiedAt"] = NowEpoch(ctx);
  BeginUpdating(ctx, doc, ctx.settings.nodegroup_delay);
  SaveNodegroup(ctx, doc);
  UpdateTarget target{doc["cluster"].get<std::string>(), doc["name"].get<std::string>(), ""};
  return Json{{"update", StartUpdate(ctx, target, type, params, ctx.settings.nodegroup_delay)}};
}

}  // namespace

std::optional<Json> LoadNodegroup(ServiceContext& ctx, const std::string& cluster,
                                  const std::string& name) {
  std::string key = ChildKey(ctx, cluster, name);
  std::optional<Json> doc = ctx.world.Get(kNodegroupKind, key);
  if (!doc) return std::nullopt;
  if (PhaseOf(ctx, *doc) != Phase::Gone) return doc;
  EraseUpdates(ctx, UpdateTarget{cluster, name, ""});
  ctx.world.Erase(kNodegroupKind, key);
  return std::nullopt;
}

std::vector<std::string> NodegroupNames(ServiceContext& ctx, const std::string& cluster) {
  std::vector<std::string> names;
  for (const std::string& key : ChildKeys(ctx, kNodegroupKind, cluster)) {
    std::string name = key.substr(key.rfind('/') + 1);
    if (LoadNodegroup(ctx, cluster, name)) names.push_back(name);
  }
  return names;
}

Json RenderNodegroup(const ServiceContext& ctx, const Json& doc) {
  Json view = doc.at("view");
  view["status"] = StatusWord(PhaseOf(ctx, doc));
  return view;
}

void SaveNodegroup(ServiceContext& ctx, const Json& doc) {
  ctx.world.Put(
      kNodegroupKind,
      ChildKey(ctx, doc.at("cluster").get<std::string>(), doc.at("name").get<std::string>()), doc);
}

Response CreateNodegroup(ServiceContext& ctx, const std::string& cluster) {
  Json body = ObjectBody(ctx);
  std::string name = RequiredString(body, "nodegroupName");
  CheckName(name, "node group");
  Json cluster_doc = RequireCluster(ctx, cluster);
  if (std::optional<Json> existing = LoadNodegroup(ctx, cluster, name)) {
    std::optional<std::string> token = OptionalString(body, "clientRequestToken");
    if (token && existing->at("view").value("clientRequestToken", "") == *token) {
      return JsonResponse(ctx, NodegroupAnswer(ctx, *existing));
    }
    ThrowInUse("NodeGroup already exists with name " + name + " and cluster name " + cluster);
  }
  if (PhaseOf(ctx, cluster_doc) != Phase::Active) {
    ThrowInvalidRequest("Cluster '" + cluster + "' is not in ACTIVE status");
  }
  Json doc = NewNodegroupDoc(ctx, body, cluster_doc, name);
  SaveNodegroup(ctx, doc);
  MakeAutoScalingGroup(ctx, doc);
  return JsonResponse(ctx, NodegroupAnswer(ctx, doc));
}

Response DescribeNodegroup(ServiceContext& ctx, const std::string& cluster,
                           const std::string& name) {
  return JsonResponse(ctx, NodegroupAnswer(ctx, RequireNodegroup(ctx, cluster, name)));
}

Response ListNodegroups(ServiceContext& ctx, const std::string& cluster) {
  RequireCluster(ctx, cluster);
  return JsonResponse(ctx, Paginate(ctx, NodegroupNames(ctx, cluster), "nodegroups"));
}

Response DeleteNodegroup(ServiceContext& ctx, const std::string& cluster, const std::string& name) {
  Json doc = RequireNodegroup(ctx, cluster, name);
  if (PhaseOf(ctx, doc) != Phase::Deleting) {
    BeginDeleting(ctx, doc, ctx.settings.nodegroup_delay);
    SaveNodegroup(ctx, doc);
    autoscaling::DeleteGroupAt(ctx, AutoScalingGroupName(doc), MsFromNow(ctx, ctx.settings.nodegroup_delay));
  }
  return JsonResponse(ctx, NodegroupAnswer(ctx, doc));
}

Response UpdateNodegroupConfig(ServiceContext& ctx, const std::string& cluster,
                               const std::string& name) {
  Json body = ObjectBody(ctx);
  Json doc = RequireUpdatableNodegroup(ctx, cluster, name);
  Json& view = doc["view"];
  Json params = Json::array();
  if (const Json* labels = OptionalObject(body, "labels")) ApplyLabelChanges(view, *labels, params);
  if (const Json* taints = OptionalObject(body, "taints")) ApplyTaintChanges(view, *taints, params);
  if (const Json* scaling = OptionalObject(body, "scalingConfig")) {
    ApplyScalingChanges(view, *scaling, params);
    const Json& size = view["scalingConfig"];
    autoscaling::ResizeGroup(ctx, AutoScalingGroupName(doc), size["minSize"].get<int64_t>(),
                             size["maxSize"].get<int64_t>(), size["desiredSize"].get<int64_t>());
  }
  if (const Json* update = OptionalObject(body, "updateConfig")) {
    view["updateConfig"] = CheckedUpdateConfig(update);
    for (const auto& [member, value] : view["updateConfig"].items()) {
      params.push_back(
          UpdateParam(member == "maxUnavailable" ? "MaxUnavailable" : "MaxUnavailablePercentage",
                      std::to_string(value.get<int64_t>())));
    }
  }
  if (params.empty()) {
    ThrowInvalidParameter(
        "No changes needed: the request names no node group configuration to update.");
  }
  return JsonResponse(ctx, NodegroupUpdateAnswer(ctx, doc, "ConfigUpdate", params));
}

Response UpdateNodegroupVersion(ServiceContext& ctx, const std::string& cluster,
                                const std::string& name) {
  Json body = ObjectBody(ctx);
  Json doc = RequireUpdatableNodegroup(ctx, cluster, name);
  Json cluster_doc = RequireCluster(ctx, cluster);
  std::string version = CheckedVersion(OptionalString(body, "version"),
                                       cluster_doc["view"]["version"].get<std::string>());
  // An upgrade cannot take an Amazon Linux 2 group past 1.32.
  CheckAmiTypeForVersion(doc["view"].value("amiType", ""), version);
  std::string release =
      OptionalString(body, "releaseVersion").value_or(DefaultReleaseVersion(version));
  Json& view = doc["view"];
  view["version"] = version;
  view["releaseVersion"] = release;
  if (const Json* launch_template = OptionalObject(body, "launchTemplate")) {
    if (!view.contains("launchTemplate")) {
      ThrowInvalidParameter("The node group was not created with a launch template: it cannot be updated to one.");
    }
    std::string current = view["launchTemplate"].value("id", "");
    view["launchTemplate"] = TemplateView(CheckedLaunchTemplate(ctx, *launch_template, current));
  }
  Json params =
      Json::array({UpdateParam("Version", version), UpdateParam("ReleaseVersion", release)});
  return JsonResponse(ctx, NodegroupUpdateAnswer(ctx, doc, "VersionUpdate", params));
}

}  // namespace strata::sandbox::eks
