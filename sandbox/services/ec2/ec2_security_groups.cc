// Security groups: Create/Describe/DeleteSecurityGroup. Their rules are in
// ec2_security_group_rules.cc.

#include "sandbox/services/ec2/ec2_security_groups.h"

#include <algorithm>

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_security_group_rules.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

// The sandbox's accounts have no default VPC, so calls that would fall back on it fail.
ApiError NoDefaultVpc() { return ApiError(400, "VPCIdNotSpecified", "No default VPC for this user"); }

Json NewGroup(const Ec2Call& call, const std::string& vpc_id, const std::string& name, const std::string& description) {
  Json group = NewObject(call, kSecurityGroupKind);
  group["vpcId"] = vpc_id;
  group["groupName"] = name;
  group["description"] = description;
  return group;
}

void WriteGroup(const Ec2Call& call, pugi::xml_node item, const Json& group) {
  std::vector<Json> ingress, egress;
  for (Json& rule : RulesOf(call, group["id"])) (rule["isEgress"].get<bool>() ? egress : ingress).push_back(rule);
  AddText(item, "ownerId", call.account());
  AddText(item, "groupId", group["id"]);
  AddText(item, "groupName", group["groupName"]);
  AddText(item, "groupDescription", group["description"]);
  WritePermissions(call, item, "ipPermissions", ingress);
  WritePermissions(call, item, "ipPermissionsEgress", egress);
  AddText(item, "vpcId", group["vpcId"]);
  AddText(item, "securityGroupArn", Ec2Arn(call, kSecurityGroupKind, group["id"]));
  WriteTagSet(item, group);
}

void CreateSecurityGroup(Ec2Call& call, pugi::xml_node response) {
  std::string name = call.Require("GroupName");
  std::string description = call.Require("GroupDescription");
  if (!call.Has("VpcId")) throw NoDefaultVpc();
  std::string vpc_id = call.Get("VpcId");
  Require(call, kVpcKind, vpc_id);
  if (name == "default") throw ApiError(400, "InvalidGroup.Reserved", "The security group 'default' is reserved");
  if (name.rfind("sg-", 0) == 0) throw InvalidParameterValue("Group names may not be in the format sg-*");
  if (name.size() > 255 || description.size() > 255) {
    throw InvalidParameterValue("Group name and description may have at most 255 characters");
  }
  for (const Json& other : ListIn(call, kSecurityGroupKind)) {
    if (other["vpcId"] == vpc_id && other["groupName"] == name) {
      throw ApiError(400, "InvalidGroup.Duplicate",
                     "The security group '" + name + "' already exists for VPC '" + vpc_id + "'");
    }
  }
  Json group = NewGroup(call, vpc_id, name, description);
  group["tags"] = TagsFromSpecifications(call, "security-group");
  Save(call, kSecurityGroupKind, group);
  Save(call, kSecurityGroupRuleKind, AllTrafficRule(call, group["id"], true, "cidrIpv4", "0.0.0.0/0"));
  AddReturnTrue(response);
  AddText(response, "groupId", group["id"]);
  WriteTagSet(response, group);
  AddText(response, "securityGroupArn", Ec2Arn(call, kSecurityGroupKind, group["id"]));
}

void DescribeSecurityGroups(Ec2Call& call, pugi::xml_node response) {
  std::vector<Json> groups = ListIn(call, kSecurityGroupKind);
  std::vector<std::string> names = call.NumberedList("GroupName");
  for (const std::string& name : names) {
    bool known = std::any_of(groups.begin(), groups.end(), [&](const Json& g) { return g["groupName"] == name; });
    if (!known) throw NotFound(kSecurityGroupKind, name);
  }
  auto fields = [&](const Json& g, const std::string& name) -> std::optional<std::vector<std::string>> {
    using V = std::vector<std::string>;
    if (name == "group-id") return V{g["id"]};
    if (name == "group-name") return V{g["groupName"]};
    if (name == "vpc-id") return V{g["vpcId"]};
    if (name == "description") return V{g["description"]};
    if (name == "owner-id") return V{call.account()};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "securityGroupInfo");
  for (const Json& group : SelectObjects(call, kSecurityGroupKind, groups, "GroupId", fields)) {
    if (!names.empty() && std::find(names.begin(), names.end(), group["groupName"]) == names.end()) continue;
    WriteGroup(call, AddItem(set), group);
  }
}

void DeleteSecurityGroup(Ec2Call& call, pugi::xml_node response) {
  if (!call.Has("GroupId")) {
    if (call.Has("GroupName")) throw NoDefaultVpc();
    throw MissingParameter("GroupId");
  }
  Json group = Require(call, kSecurityGroupKind, call.Get("GroupId"));
  std::string id = group["id"];
  if (group["groupName"] == "default") {
    throw ApiError(400, "CannotDelete", "the specified group: \"" + id + "\" name: \"default\" cannot be deleted by a user");
  }
  for (const Json& rule : ListIn(call, kSecurityGroupRuleKind)) {
    if (rule["groupId"] != id && rule["peerKind"] == "referencedGroupId" && rule["peer"] == id) {
      throw ApiError(400, "DependencyViolation", "resource " + id + " has a dependent object");
    }
  }
  EraseSecurityGroup(call, id);
  AddReturnTrue(response);
}

}  // namespace

void CreateDefaultSecurityGroup(const Ec2Call& call, const Json& vpc) {
  Json group = NewGroup(call, vpc["id"], "default", "default VPC security group");
  Save(call, kSecurityGroupKind, group);
  Save(call, kSecurityGroupRuleKind, AllTrafficRule(call, group["id"], false, "referencedGroupId", group["id"]));
  Save(call, kSecurityGroupRuleKind, AllTrafficRule(call, group["id"], true, "cidrIpv4", "0.0.0.0/0"));
}

void EraseSecurityGroup(const Ec2Call& call, const std::string& group_id) {
  for (const Json& rule : RulesOf(call, group_id)) Remove(call, kSecurityGroupRuleKind, rule["id"]);
  Remove(call, kSecurityGroupKind, group_id);
}

namespace {
// What EC2 sees of a call another service makes inside its own request: the region, account,
// clock and world of that request, none of its parameters (an EKS body is JSON, not a query).
struct InternalEc2Call {
  explicit InternalEc2Call(ServiceContext& ctx)
      : request(Blank(ctx.request)),
        inner{ctx.world, request, ctx.settings, ctx.now, ctx.cluster_endpoint_base, ctx.cluster_ca_pem},
        call(inner) {}
  static Request Blank(const Request& from) {
    Request r;
    r.region = from.region;
    r.account_id = from.account_id;
    r.request_id = from.request_id;
    r.caller = from.caller;
    return r;
  }
  Request request;
  ServiceContext inner;
  Ec2Call call;
};
}  // namespace

std::string CreateServiceSecurityGroup(ServiceContext& ctx, const std::string& vpc_id, const std::string& name,
                                       const std::string& description, const Json& tags) {
  InternalEc2Call internal(ctx);
  const Ec2Call& call = internal.call;
  Json group = NewGroup(call, vpc_id, name, description);
  group["tags"] = tags;
  Save(call, kSecurityGroupKind, group);
  Save(call, kSecurityGroupRuleKind, AllTrafficRule(call, group["id"], false, "referencedGroupId", group["id"]));
  Save(call, kSecurityGroupRuleKind, AllTrafficRule(call, group["id"], true, "cidrIpv4", "0.0.0.0/0"));
  return group["id"];
}

void DeleteServiceSecurityGroup(ServiceContext& ctx, const std::string& group_id) {
  InternalEc2Call internal(ctx);
  if (Find(internal.call, kSecurityGroupKind, group_id)) EraseSecurityGroup(internal.call, group_id);
}

void AddSecurityGroupActions(Ec2Actions& actions) {
  actions["CreateSecurityGroup"] = CreateSecurityGroup;
  actions["DescribeSecurityGroups"] = DescribeSecurityGroups;
  actions["DeleteSecurityGroup"] = DeleteSecurityGroup;
  AddSecurityGroupRuleActions(actions);
}

}  // namespace strata::sandbox
