// The Auto Scaling service (awsQuery, API version 2011-01-01): the groups EKS made for its
// node groups (autoscaling_groups.h) and those made through the API
// (autoscaling_lifecycle.cc), described, and their tags (autoscaling_tags.cc).
// DescribeAutoScalingGroups answers as AWS does for a managed node group's group: a mixed
// instances policy over the node group's launch template and instance types, its zones and
// subnets, its size, and its tags.

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/query_service.h"
#include "sandbox/services/autoscaling/autoscaling_actions.h"
#include "sandbox/services/autoscaling/autoscaling_groups.h"

namespace strata::sandbox {
namespace autoscaling {
namespace {

std::string JoinedSubnets(const Json& subnets) {
  std::string out;
  for (const Json& id : subnets) out += (out.empty() ? "" : ",") + id.get<std::string>();
  return out;
}

void WriteMixedInstancesPolicy(pugi::xml_node parent, const Json& group) {
  pugi::xml_node policy = AddChild(parent, "MixedInstancesPolicy");
  pugi::xml_node launch = AddChild(policy, "LaunchTemplate");
  pugi::xml_node spec = AddChild(launch, "LaunchTemplateSpecification");
  for (const char* member : {"LaunchTemplateId", "LaunchTemplateName", "Version"}) {
    if (group["launch_template"].contains(member)) AddText(spec, member, group["launch_template"][member].get<std::string>());
  }
  pugi::xml_node overrides = AddChild(launch, "Overrides");
  for (const Json& type : group["instance_types"]) AddText(AddChild(overrides, "member"), "InstanceType", type.get<std::string>());
  bool spot = group["spot"].get<bool>();
  pugi::xml_node distribution = AddChild(policy, "InstancesDistribution");
  AddText(distribution, "OnDemandAllocationStrategy", "prioritized");
  AddText(distribution, "OnDemandBaseCapacity", "0");
  AddText(distribution, "OnDemandPercentageAboveBaseCapacity", spot ? "0" : "100");
  AddText(distribution, "SpotAllocationStrategy", spot ? "capacity-optimized" : "lowest-price");
}

void WriteGroupTags(pugi::xml_node parent, const Json& group) {
  pugi::xml_node tags = AddChild(parent, "Tags");
  for (const auto& [key, tag] : group["tags"].items()) {
    pugi::xml_node member = AddChild(tags, "member");
    AddText(member, "ResourceId", group["name"].get<std::string>());
    AddText(member, "ResourceType", "auto-scaling-group");
    AddText(member, "Key", key);
    AddText(member, "Value", tag["value"].get<std::string>());
    AddBool(member, "PropagateAtLaunch", tag["propagate"].get<bool>());
  }
}

void WriteSpecification(pugi::xml_node parent, const char* element, const Json& spec) {
  pugi::xml_node out = AddChild(parent, element);
  for (const char* member : {"LaunchTemplateId", "LaunchTemplateName", "Version"}) {
    if (spec.contains(member)) AddText(out, member, spec[member].get<std::string>());
  }
}

//! A group made through the API: the policy as its create or last update gave it.
void WriteApiPolicy(pugi::xml_node parent, const Json& api) {
  if (api.contains("template")) WriteSpecification(parent, "LaunchTemplate", api["template"]);
  if (!api.contains("policy")) return;
  const Json& given = api["policy"];
  pugi::xml_node policy = AddChild(parent, "MixedInstancesPolicy");
  pugi::xml_node launch = AddChild(policy, "LaunchTemplate");
  WriteSpecification(launch, "LaunchTemplateSpecification", given["spec"]);
  pugi::xml_node overrides = AddChild(launch, "Overrides");
  for (const Json& item : given["overrides"]) {
    pugi::xml_node member = AddChild(overrides, "member");
    for (const auto& [field, value] : item.items()) AddText(member, field.c_str(), value.get<std::string>());
  }
  pugi::xml_node distribution = AddChild(policy, "InstancesDistribution");
  for (const auto& [field, value] : given["distribution"].items()) {
    AddText(distribution, field.c_str(), value.is_string() ? value.get<std::string>() : std::to_string(value.get<int64_t>()));
  }
}

void WriteInstances(pugi::xml_node parent, const Json& group) {
  pugi::xml_node instances = AddChild(parent, "Instances");
  for (const Json& instance : group.value("instances", Json::array())) {
    pugi::xml_node member = AddChild(instances, "member");
    for (const char* field : {"InstanceId", "InstanceType", "AvailabilityZone", "LifecycleState", "HealthStatus"}) {
      AddText(member, field, instance[field].get<std::string>());
    }
    WriteSpecification(member, "LaunchTemplate",
                       group["api"].contains("policy") ? group["api"]["policy"]["spec"] : group["api"]["template"]);
    AddBool(member, "ProtectedFromScaleIn", instance["ProtectedFromScaleIn"].get<bool>());
  }
}

void WriteGroup(const ServiceContext& ctx, pugi::xml_node parent, const Json& group) {
  pugi::xml_node out = AddChild(parent, "member");
  // EKS's groups (no "api") answer with EKS's settings; the API's with what was asked.
  const Json api = group.value("api", Json::object());
  bool made_by_api = group.contains("api");
  AddText(out, "AutoScalingGroupName", group["name"].get<std::string>());
  AddText(out, "AutoScalingGroupARN", group["arn"].get<std::string>());
  if (made_by_api) {
    WriteApiPolicy(out, api);
  } else {
    WriteMixedInstancesPolicy(out, group);
  }
  AddText(out, "MinSize", std::to_string(group["min"].get<int64_t>()));
  AddText(out, "MaxSize", std::to_string(group["max"].get<int64_t>()));
  AddText(out, "DesiredCapacity", std::to_string(group["desired"].get<int64_t>()));
  AddText(out, "DefaultCooldown", std::to_string(api.value("cooldown", int64_t{300})));
  AddStringList(out, "AvailabilityZones", group["zones"].get<std::vector<std::string>>());
  AddChild(out, "LoadBalancerNames");
  AddChild(out, "TargetGroupARNs");
  AddText(out, "HealthCheckType", api.value("health_check_type", "EC2"));
  AddText(out, "HealthCheckGracePeriod", std::to_string(api.value("grace", int64_t{made_by_api ? 300 : 15})));
  WriteInstances(out, group);
  AddText(out, "CreatedTime", group["created"].get<std::string>());
  pugi::xml_node suspended = AddChild(out, "SuspendedProcesses");
  for (const Json& process : api.value("suspended", Json::array())) {
    pugi::xml_node member = AddChild(suspended, "member");
    AddText(member, "ProcessName", process.get<std::string>());
    AddText(member, "SuspensionReason", "User suspended at " + group["created"].get<std::string>());
  }
  AddText(out, "VPCZoneIdentifier", JoinedSubnets(group["subnets"]));
  AddChild(out, "EnabledMetrics");
  if (IsDeleting(ctx, group)) AddText(out, "Status", "Delete in progress");
  WriteGroupTags(out, group);
  AddStringList(out, "TerminationPolicies",
                api.value("termination_policies", made_by_api ? std::vector<std::string>{"Default"}
                                                              : std::vector<std::string>{"AllocationStrategy",
                                                                                         "OldestLaunchTemplate",
                                                                                         "OldestInstance"}));
  AddBool(out, "NewInstancesProtectedFromScaleIn", api.value("protect", false));
  AddText(out, "ServiceLinkedRoleARN", "arn:aws:iam::" + ctx.settings.account_id +
                                           ":role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling");
  AddBool(out, "CapacityRebalance", made_by_api ? api.value("rebalance", false) : group["spot"].get<bool>());
}

//! DescribeAutoScalingGroups' filters: tag-key, tag-value, tag:<key>.
bool GroupMatches(const Json& group, const Filter& filter) {
  const Json& tags = group["tags"];
  if (filter.name == "tag-key") {
    for (const auto& [key, tag] : tags.items()) {
      if (FilterMatches(filter, key)) return true;
    }
    return false;
  }
  if (filter.name == "tag-value") {
    for (const auto& [key, tag] : tags.items()) {
      if (FilterMatches(filter, tag["value"].get<std::string>())) return true;
    }
    return false;
  }
  std::string key = filter.name.substr(4);
  return tags.contains(key) && FilterMatches(filter, tags[key]["value"].get<std::string>());
}

void DescribeAutoScalingGroups(AutoScalingCall& call) {
  std::vector<std::string> names = call.params.MemberList("AutoScalingGroupNames");
  std::vector<Filter> filters = FiltersOf(call.params);
  for (const Filter& filter : filters) {
    if (filter.name != "tag-key" && filter.name != "tag-value" && filter.name.rfind("tag:", 0) != 0) {
      throw AutoScalingValidation("Filter type " + filter.name +
                                  " is not correct. Allowed Filter types are: tag-key tag-value tag:<key>");
    }
  }
  std::vector<Json> selected;
  for (Json& group : LiveGroups(call.ctx)) {
    std::string name = group["name"].get<std::string>();
    if (!names.empty() && std::find(names.begin(), names.end(), name) == names.end()) continue;
    bool matches = true;
    for (const Filter& filter : filters) matches = matches && GroupMatches(group, filter);
    if (matches) selected.push_back(std::move(group));
  }
  QueryPage page = SelectAutoScalingPage(call.params, selected.size());
  pugi::xml_node groups = AddChild(call.result, "AutoScalingGroups");
  for (size_t i = page.begin; i < page.end; ++i) WriteGroup(call.ctx, groups, selected[i]);
  WriteNextToken(call.result, page);
}

}  // namespace

std::vector<Filter> FiltersOf(const AwsQueryParams& params) {
  std::vector<Filter> filters;
  for (const auto& [n, fields] : params.MemberStructs("Filters")) {
    std::string member = "Filters.member." + std::to_string(n);
    auto name = fields.find("Name");
    if (name == fields.end()) throw ValidationError(member + ".Name", "null", "Member must not be null");
    filters.push_back({name->second, params.MemberList(member + ".Values")});
  }
  return filters;
}

bool FilterMatches(const Filter& filter, const std::string& value) {
  return std::find(filter.values.begin(), filter.values.end(), value) != filter.values.end();
}

QueryPage SelectAutoScalingPage(const AwsQueryParams& params, size_t total) {
  return SelectQueryPage(params, total, QueryPaging{"MaxRecords", "NextToken", 100, 50});
}

void WriteNextToken(pugi::xml_node result, const QueryPage& page) {
  if (page.truncated) AddText(result, "NextToken", page.next_token);
}

ApiError AutoScalingValidation(const std::string& message) { return ApiError(400, "ValidationError", message); }

void AddGroupActions(AutoScalingActionTable& table) { table["DescribeAutoScalingGroups"] = DescribeAutoScalingGroups; }

}  // namespace autoscaling

std::unique_ptr<Service> NewAutoScalingService() {
  autoscaling::AutoScalingActionTable actions;
  autoscaling::AddGroupActions(actions);
  autoscaling::AddTagActions(actions);
  autoscaling::AddLifecycleActions(actions);
  return NewQueryService("autoscaling", {"2011-01-01", "http://autoscaling.amazonaws.com/doc/2011-01-01/"},
                         std::move(actions));
}

}  // namespace strata::sandbox
