#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

const Ec2Kind kVpcKind{"ec2.vpc", "vpc", "vpc", "InvalidVpcID.NotFound", "The vpc ID '{}' does not exist"};
const Ec2Kind kSubnetKind{"ec2.subnet", "subnet", "subnet", "InvalidSubnetID.NotFound",
                          "The subnet ID '{}' does not exist"};
const Ec2Kind kInternetGatewayKind{"ec2.internet_gateway", "igw", "internet-gateway",
                                   "InvalidInternetGatewayID.NotFound",
                                   "The internetGateway ID '{}' does not exist"};
const Ec2Kind kAddressKind{"ec2.address", "eipalloc", "elastic-ip", "InvalidAllocationID.NotFound",
                           "The allocation ID '{}' does not exist"};
const Ec2Kind kNatGatewayKind{"ec2.nat_gateway", "nat", "natgateway", "NatGatewayNotFound",
                              "NAT gateway {} was not found"};
const Ec2Kind kRouteTableKind{"ec2.route_table", "rtb", "route-table", "InvalidRouteTableID.NotFound",
                              "The routeTable ID '{}' does not exist"};
const Ec2Kind kSecurityGroupKind{"ec2.security_group", "sg", "security-group", "InvalidGroup.NotFound",
                                 "The security group '{}' does not exist"};
const Ec2Kind kSecurityGroupRuleKind{"ec2.security_group_rule", "sgr", "security-group-rule",
                                     "InvalidSecurityGroupRuleId.NotFound",
                                     "The security group rule ID '{}' does not exist"};
const Ec2Kind kLaunchTemplateKind{"ec2.launch_template", "lt", "launch-template", "InvalidLaunchTemplateId.NotFound",
                                  "The specified launch template, with template ID {}, does not exist."};

const std::vector<const Ec2Kind*>& AllEc2Kinds() {
  static const std::vector<const Ec2Kind*> kAll = {
      &kVpcKind,        &kSubnetKind,     &kInternetGatewayKind, &kAddressKind,
      &kNatGatewayKind, &kRouteTableKind, &kSecurityGroupKind,   &kSecurityGroupRuleKind,
      &kLaunchTemplateKind};
  return kAll;
}

const Ec2Kind* KindOfId(const std::string& id) {
  std::string prefix = id.substr(0, id.find('-'));
  for (const Ec2Kind* kind : AllEc2Kinds()) {
    if (kind->id_prefix == prefix) return kind;
  }
  return nullptr;
}

ApiError NotFound(const Ec2Kind& kind, const std::string& id) {
  std::string message = kind.not_found_message;
  message.replace(message.find("{}"), 2, id);
  return ApiError(400, kind.not_found_code, message);
}

Json NewObject(const Ec2Call& call, const Ec2Kind& kind) {
  return Json{{"id", call.world().NewId(kind.id_prefix)}, {"region", call.region()}, {"tags", Json::object()}};
}

std::optional<Json> Find(const Ec2Call& call, const Ec2Kind& kind, const std::string& id) {
  std::optional<Json> object = call.world().Get(kind.store, id);
  if (!object || (*object)["region"] != call.region()) return std::nullopt;
  return object;
}

Json Require(const Ec2Call& call, const Ec2Kind& kind, const std::string& id) {
  std::optional<Json> object = Find(call, kind, id);
  if (!object) throw NotFound(kind, id);
  return *object;
}

std::vector<Json> ListIn(const Ec2Call& call, const Ec2Kind& kind) {
  std::vector<Json> out;
  for (auto& [id, object] : call.world().List(kind.store)) {
    if (object["region"] == call.region()) out.push_back(std::move(object));
  }
  return out;
}

void Save(const Ec2Call& call, const Ec2Kind& kind, const Json& object) {
  call.world().Put(kind.store, object.at("id").get<std::string>(), object);
}

void Remove(const Ec2Call& call, const Ec2Kind& kind, const std::string& id) {
  call.world().Erase(kind.store, id);
}

std::string Ec2Arn(const Ec2Call& call, const Ec2Kind& kind, const std::string& id) {
  return "arn:aws:ec2:" + call.region() + ":" + call.account() + ":" + kind.resource_type + "/" + id;
}

}  // namespace strata::sandbox
