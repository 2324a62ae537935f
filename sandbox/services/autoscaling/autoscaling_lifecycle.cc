// Auto Scaling groups made through the API: CreateAutoScalingGroup, UpdateAutoScalingGroup,
// DeleteAutoScalingGroup, SuspendProcesses and ResumeProcesses, with Auto Scaling's refusals
// (AlreadyExists; ValidationError for sizes out of order, a missing launch template or
// subnet, a group that is not there; ResourceInUse for a delete of a group that still has
// instances without ForceDelete). Such a group keeps what the call gave ("api": its launch
// template or mixed instances policy, health checks, cooldown, termination policies,
// suspended processes) and "instances": the sandbox launches desired_capacity instances at
// once, InService, their types taken in turn from the policy's overrides (else the launch
// template's instanceType), their zones in turn from the subnets'. They are the group's
// records only: EC2's DescribeInstances does not list them. A deleted group is gone a
// second later (Status "Delete in progress" meanwhile).

#include <algorithm>
#include <chrono>
#include <set>

#include "sandbox/services/autoscaling/autoscaling_actions.h"
#include "sandbox/services/autoscaling/autoscaling_groups.h"

namespace strata::sandbox::autoscaling {
namespace {

constexpr int64_t kDeleteMillis = 1000;
const std::set<std::string> kScalingProcesses = {"Launch", "Terminate", "AddToLoadBalancer", "AlarmNotification",
                                                 "AZRebalance", "HealthCheck", "InstanceRefresh",
                                                 "ReplaceUnhealthy", "ScheduledActions"};

// EC2's objects in the world, read as the EKS service reads them (eks_world_refs.cc): one
// document per object under "ec2.<kind>", keyed by id, with the region it was made in.
std::optional<Json> FindEc2Object(const ServiceContext& ctx, const char* kind, const std::string& id) {
  std::optional<Json> object = ctx.world.Get(kind, id);
  if (!object || !object->is_object()) return std::nullopt;
  std::string region = object->value("region", "");
  if (!region.empty() && region != ctx.request.region && region != RegionOf(ctx)) return std::nullopt;
  return object;
}

//! The launch template named by id or name, or a ValidationError in Auto Scaling's words.
Json RequireLaunchTemplate(const ServiceContext& ctx, const std::string& id, const std::string& name) {
  std::optional<Json> lt;
  if (!id.empty()) {
    lt = FindEc2Object(ctx, "ec2.launch_template", id);
  } else {
    for (auto& [key, object] : ctx.world.List("ec2.launch_template")) {
      if (object.value("name", "") == name && FindEc2Object(ctx, "ec2.launch_template", key)) lt = std::move(object);
    }
  }
  if (!lt) {
    throw AutoScalingValidation("You must use a valid fully-formed launch template. The specified launch template, with " +
                                (id.empty() ? "template name " + name : "template ID " + id) + ", does not exist.");
  }
  return *lt;
}

//! The launch template's instanceType at its latest version ("" when it names none).
std::string TemplateInstanceType(const Json& lt) {
  std::string type;
  for (const Json& v : lt.value("versions", Json::array())) {
    type = v.value("data", Json::object()).value("instanceType", type);
  }
  return type;
}

//! A LaunchTemplate structure under `prefix` ("LaunchTemplate."), checked; null when absent.
Json TemplateSpec(const ServiceContext& ctx, const AwsQueryParams& params, const std::string& prefix) {
  std::string id = params.Get(prefix + "LaunchTemplateId"), name = params.Get(prefix + "LaunchTemplateName");
  if (id.empty() && name.empty()) return Json();
  if (!id.empty() && !name.empty()) {
    throw AutoScalingValidation("Valid requests must contain either launchTemplateId or LaunchTemplateName");
  }
  Json lt = RequireLaunchTemplate(ctx, id, name);
  Json spec = {{"LaunchTemplateId", lt.value("id", id)}, {"LaunchTemplateName", lt.value("name", name)},
               {"Version", params.Get(prefix + "Version", "$Default")}, {"instance_type", TemplateInstanceType(lt)}};
  return spec;
}

//! A MixedInstancesPolicy parameter, checked; null when absent.
Json MixedPolicy(const ServiceContext& ctx, const AwsQueryParams& params) {
  const std::string base = "MixedInstancesPolicy.";
  Json spec = TemplateSpec(ctx, params, base + "LaunchTemplate.LaunchTemplateSpecification.");
  if (spec.is_null()) {
    bool any = params.Has(base + "LaunchTemplate.LaunchTemplateSpecification.Version") ||
               !params.MemberStructs(base + "LaunchTemplate.Overrides").empty();
    if (!any) return Json();
    throw AutoScalingValidation("Valid requests must contain either launchTemplateId or LaunchTemplateName");
  }
  Json policy = {{"spec", spec}, {"overrides", Json::array()}};
  for (const auto& [n, fields] : params.MemberStructs(base + "LaunchTemplate.Overrides")) {
    Json item = Json::object();
    for (const char* member : {"InstanceType", "WeightedCapacity"}) {
      if (fields.count(member)) item[member] = fields.at(member);
    }
    policy["overrides"].push_back(item);
  }
  const std::string d = base + "InstancesDistribution.";
  Json distribution = {{"OnDemandAllocationStrategy", params.Get(d + "OnDemandAllocationStrategy", "prioritized")},
                       {"OnDemandBaseCapacity", params.Integer(d + "OnDemandBaseCapacity", 0, 1000000).value_or(0)},
                       {"OnDemandPercentageAboveBaseCapacity",
                        params.Integer(d + "OnDemandPercentageAboveBaseCapacity", 0, 100).value_or(100)},
                       {"SpotAllocationStrategy", params.Get(d + "SpotAllocationStrategy", "lowest-price")}};
  std::string spot = distribution["SpotAllocationStrategy"].get<std::string>();
  static const std::set<std::string> kSpotStrategies = {"lowest-price", "capacity-optimized",
                                                        "capacity-optimized-prioritized", "price-capacity-optimized"};
  if (!kSpotStrategies.count(spot)) {
    throw AutoScalingValidation("Invalid spot allocation strategy: " + spot);
  }
  if (spot == "lowest-price") {
    distribution["SpotInstancePools"] = params.Integer(d + "SpotInstancePools", 1, 20).value_or(2);
  }
  std::string price = params.Get(d + "SpotMaxPrice");
  if (!price.empty()) distribution["SpotMaxPrice"] = price;
  policy["distribution"] = distribution;
  return policy;
}

//! Sizes in order, as Auto Scaling checks them.
void CheckSizes(int64_t min, int64_t max, int64_t desired) {
  if (max < min) {
    throw AutoScalingValidation("Max bound, " + std::to_string(max) + ", must be greater than or equal to min bound, " +
                                std::to_string(min));
  }
  if (desired < min || desired > max) {
    throw AutoScalingValidation("Desired capacity:" + std::to_string(desired) + " must be between the specified min size:" +
                                std::to_string(min) + " and max size:" + std::to_string(max));
  }
}

//! VPCZoneIdentifier's subnets and their zones; an unknown subnet is refused.
void PlaceGroup(ServiceContext& ctx, Json& group, const std::string& zone_identifier) {
  std::vector<std::string> subnets, zones;
  for (size_t start = 0; start < zone_identifier.size();) {
    size_t comma = std::min(zone_identifier.find(',', start), zone_identifier.size());
    std::string id = zone_identifier.substr(start, comma - start);
    start = comma + 1;
    if (id.empty()) continue;
    std::optional<Json> subnet = FindEc2Object(ctx, "ec2.subnet", id);
    if (!subnet) throw AutoScalingValidation("The subnet ID '" + id + "' does not exist");
    std::string zone = subnet->value("availabilityZone", subnet->value("AvailabilityZone", ""));
    subnets.push_back(id);
    if (std::find(zones.begin(), zones.end(), zone) == zones.end()) zones.push_back(zone);
  }
  group["subnets"] = subnets;
  group["zones"] = zones;
}

//! The instance types the group launches, in turn.
std::vector<std::string> LaunchTypes(const Json& api) {
  std::vector<std::string> types;
  if (api.contains("policy")) {
    for (const Json& item : api["policy"]["overrides"]) {
      if (item.contains("InstanceType")) types.push_back(item["InstanceType"].get<std::string>());
    }
    if (types.empty()) types.push_back(api["policy"]["spec"].value("instance_type", ""));
  } else {
    types.push_back(api["template"].value("instance_type", ""));
  }
  return types;
}

//! Launches or terminates instances until the group holds its desired capacity.
void Reconcile(ServiceContext& ctx, Json& group) {
  Json& instances = group["instances"];
  int64_t desired = group["desired"].get<int64_t>();
  while (static_cast<int64_t>(instances.size()) > desired) instances.erase(instances.size() - 1);
  std::vector<std::string> types = LaunchTypes(group["api"]);
  std::vector<std::string> zones = group["zones"].get<std::vector<std::string>>();
  if (zones.empty()) zones.push_back(RegionOf(ctx) + "a");
  while (static_cast<int64_t>(instances.size()) < desired) {
    size_t n = instances.size();
    std::string uuid = ctx.world.NewUuid();
    uuid.erase(std::remove(uuid.begin(), uuid.end(), '-'), uuid.end());
    instances.push_back({{"InstanceId", "i-" + uuid.substr(0, 17)},
                         {"InstanceType", types[n % types.size()]},
                         {"AvailabilityZone", zones[n % zones.size()]},
                         {"LifecycleState", "InService"},
                         {"HealthStatus", "Healthy"},
                         {"ProtectedFromScaleIn", group["api"].value("protect", false)}});
  }
}

//! The settings CreateAutoScalingGroup and UpdateAutoScalingGroup share, into group["api"].
void ApplySettings(ServiceContext& ctx, const AwsQueryParams& params, Json& group) {
  Json& api = group["api"];
  Json plain = TemplateSpec(ctx, params, "LaunchTemplate.");
  Json mixed = MixedPolicy(ctx, params);
  if (!plain.is_null() && !mixed.is_null()) {
    throw AutoScalingValidation("Valid requests must contain either LaunchTemplate, LaunchConfigurationName, InstanceId "
                                "or MixedInstancesPolicy parameter.");
  }
  if (!plain.is_null()) {
    api["template"] = plain;
    api.erase("policy");
  }
  if (!mixed.is_null()) {
    api["policy"] = mixed;
    api.erase("template");
  }
  std::string check = params.Get("HealthCheckType");
  if (!check.empty()) {
    if (check != "EC2" && check != "ELB" && check != "VPC_LATTICE" && check != "EBS") {
      throw AutoScalingValidation("Invalid health check type: " + check);
    }
    api["health_check_type"] = check;
  }
  if (auto grace = params.Integer("HealthCheckGracePeriod", 0, 7200)) api["grace"] = *grace;
  if (auto cooldown = params.Integer("DefaultCooldown", 0, 1000000)) api["cooldown"] = *cooldown;
  if (!params.Get("CapacityRebalance").empty()) api["rebalance"] = params.Bool("CapacityRebalance", false);
  if (!params.Get("NewInstancesProtectedFromScaleIn").empty()) {
    api["protect"] = params.Bool("NewInstancesProtectedFromScaleIn", false);
  }
  std::vector<std::string> policies = params.MemberList("TerminationPolicies");
  if (!policies.empty()) api["termination_policies"] = policies;
  std::string zones = params.Get("VPCZoneIdentifier");
  if (!zones.empty()) PlaceGroup(ctx, group, zones);
}

void CreateAutoScalingGroup(AutoScalingCall& call) {
  const AwsQueryParams& params = call.params;
  std::string name = params.Length("AutoScalingGroupName", 1, 255, true);
  if (std::optional<Json> existing = LoadGroup(call.ctx, name)) {
    throw ApiError(400, "AlreadyExists",
                   "AutoScalingGroup by this name already exists - A group with the name " + name + " already exists");
  }
  params.Required("MinSize");
  params.Required("MaxSize");
  int64_t min = *params.Integer("MinSize", 0, 100000000);
  int64_t max = *params.Integer("MaxSize", 0, 100000000);
  int64_t desired = params.Integer("DesiredCapacity", 0, 100000000).value_or(min);
  CheckSizes(min, max, desired);
  std::string region = RegionOf(call.ctx);
  Json group = {{"region", region},
                {"name", name},
                {"arn", "arn:aws:autoscaling:" + region + ":" + call.ctx.settings.account_id + ":autoScalingGroup:" +
                            call.ctx.world.NewUuid() + ":autoScalingGroupName/" + name},
                {"created", IsoTime(call.ctx.now)},
                {"min", min},
                {"max", max},
                {"desired", desired},
                {"subnets", Json::array()},
                {"zones", Json::array()},
                {"instance_types", Json::array()},
                {"spot", false},
                {"launch_template", Json::object()},
                {"tags", Json::object()},
                {"api", Json::object()},
                {"instances", Json::array()}};
  ApplySettings(call.ctx, params, group);
  if (!group["api"].contains("template") && !group["api"].contains("policy")) {
    throw AutoScalingValidation("Valid requests must contain either LaunchTemplate, LaunchConfigurationName, InstanceId "
                                "or MixedInstancesPolicy parameter.");
  }
  if (group["subnets"].empty() && params.MemberList("AvailabilityZones").empty()) {
    throw AutoScalingValidation("At least one Availability Zone or VPC Subnet is required.");
  }
  if (group["zones"].empty()) group["zones"] = params.MemberList("AvailabilityZones");
  for (const auto& [n, fields] : params.MemberStructs("Tags")) {
    if (!fields.count("Key") || fields.at("Key").empty()) {
      throw AutoScalingValidation("Incomplete tags information for these tags. Key is missing.");
    }
    auto value = fields.find("Value");
    auto propagate = fields.find("PropagateAtLaunch");
    group["tags"][fields.at("Key")] = {{"value", value == fields.end() ? "" : value->second},
                                       {"propagate", propagate != fields.end() && propagate->second == "true"}};
  }
  Reconcile(call.ctx, group);
  SaveGroup(call.ctx, group);
}

Json RequireGroup(AutoScalingCall& call) {
  std::string name = call.params.Length("AutoScalingGroupName", 1, 1600, true);
  std::optional<Json> group = LoadGroup(call.ctx, name);
  if (!group) throw AutoScalingValidation("AutoScalingGroup name not found - AutoScalingGroup '" + name + "' not found");
  return *group;
}

void UpdateAutoScalingGroup(AutoScalingCall& call) {
  Json group = RequireGroup(call);
  if (IsDeleting(call.ctx, group)) {
    throw ApiError(400, "ScalingActivityInProgress", "AutoScalingGroup " + group["name"].get<std::string>() +
                                                         " is pending delete.");
  }
  const AwsQueryParams& params = call.params;
  int64_t min = params.Integer("MinSize", 0, 100000000).value_or(group["min"].get<int64_t>());
  int64_t max = params.Integer("MaxSize", 0, 100000000).value_or(group["max"].get<int64_t>());
  std::optional<long long> desired = params.Integer("DesiredCapacity", 0, 100000000);
  int64_t want = desired ? *desired : std::clamp<int64_t>(group["desired"].get<int64_t>(), min, std::max(min, max));
  CheckSizes(min, max, want);
  group["min"] = min;
  group["max"] = max;
  group["desired"] = want;
  if (!group.contains("api")) group["api"] = Json::object();
  ApplySettings(call.ctx, params, group);
  if (group.contains("instances")) Reconcile(call.ctx, group);
  SaveGroup(call.ctx, group);
}

void DeleteAutoScalingGroup(AutoScalingCall& call) {
  Json group = RequireGroup(call);
  bool force = call.params.Bool("ForceDelete", false);
  if (!force && !group.value("instances", Json::array()).empty()) {
    throw ApiError(400, "ResourceInUse",
                   "You cannot delete an AutoScalingGroup while there are instances or pending Spot instance request(s) "
                   "still in the group.");
  }
  if (IsDeleting(call.ctx, group)) return;
  group["instances"] = Json::array();
  SaveGroup(call.ctx, group);
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(call.ctx.now.time_since_epoch()).count();
  DeleteGroupAt(call.ctx, group["name"].get<std::string>(), now + kDeleteMillis);
}

void ChangeProcesses(AutoScalingCall& call, bool suspend) {
  Json group = RequireGroup(call);
  std::vector<std::string> named = call.params.MemberList("ScalingProcesses");
  for (const std::string& process : named) {
    if (!kScalingProcesses.count(process)) throw AutoScalingValidation("Process type " + process + " is not valid");
  }
  if (named.empty()) named.assign(kScalingProcesses.begin(), kScalingProcesses.end());
  std::set<std::string> suspended;
  for (const Json& p : group["api"].value("suspended", Json::array())) suspended.insert(p.get<std::string>());
  for (const std::string& process : named) {
    if (suspend) {
      suspended.insert(process);
    } else {
      suspended.erase(process);
    }
  }
  group["api"]["suspended"] = std::vector<std::string>(suspended.begin(), suspended.end());
  SaveGroup(call.ctx, group);
}

void SuspendProcesses(AutoScalingCall& call) { ChangeProcesses(call, true); }
void ResumeProcesses(AutoScalingCall& call) { ChangeProcesses(call, false); }

}  // namespace

void AddLifecycleActions(AutoScalingActionTable& table) {
  table["CreateAutoScalingGroup"] = {CreateAutoScalingGroup, /*has_result=*/false};
  table["UpdateAutoScalingGroup"] = {UpdateAutoScalingGroup, /*has_result=*/false};
  table["DeleteAutoScalingGroup"] = {DeleteAutoScalingGroup, /*has_result=*/false};
  table["SuspendProcesses"] = {SuspendProcesses, /*has_result=*/false};
  table["ResumeProcesses"] = {ResumeProcesses, /*has_result=*/false};
}

}  // namespace strata::sandbox::autoscaling
