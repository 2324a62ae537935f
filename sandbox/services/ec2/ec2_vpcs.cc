// VPCs: CreateVpc (with its main route table and default security group), DescribeVpcs,
// DeleteVpc (refused while anything made in it remains), Modify/DescribeVpcAttribute.

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_cidr.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_route_tables.h"
#include "sandbox/services/ec2/ec2_security_groups.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

// The attributes ModifyVpcAttribute sets and DescribeVpcAttribute reads, with AWS's defaults.
struct VpcAttribute {
  const char* name;   //!< DescribeVpcAttribute's Attribute and the response element
  const char* param;  //!< ModifyVpcAttribute's "<param>.Value"
  bool initial;
};
constexpr VpcAttribute kAttributes[] = {{"enableDnsSupport", "EnableDnsSupport", true},
                                        {"enableDnsHostnames", "EnableDnsHostnames", false},
                                        {"enableNetworkAddressUsageMetrics", "EnableNetworkAddressUsageMetrics", false}};

//! Every region has one DHCP options set its VPCs use; its id is made once and kept.
std::string DhcpOptionsId(const Ec2Call& call) {
  std::string setting = "ec2.dhcp_options." + call.region();
  std::optional<std::string> id = call.world().Setting(setting);
  if (id) return *id;
  std::string fresh = call.world().NewId("dopt");
  call.world().SetSetting(setting, fresh);
  return fresh;
}

void WriteVpc(const Ec2Call& call, pugi::xml_node item, const Json& vpc) {
  AddText(item, "vpcId", vpc["id"]);
  AddText(item, "ownerId", call.account());
  AddText(item, "state", "available");
  AddText(item, "cidrBlock", vpc["cidrBlock"]);
  pugi::xml_node association = AddItem(AddChild(item, "cidrBlockAssociationSet"));
  AddText(association, "cidrBlock", vpc["cidrBlock"]);
  AddText(association, "associationId", vpc["cidrAssociationId"]);
  AddText(AddChild(association, "cidrBlockState"), "state", "associated");
  AddText(item, "dhcpOptionsId", vpc["dhcpOptionsId"]);
  AddText(item, "instanceTenancy", vpc["instanceTenancy"]);
  AddBool(item, "isDefault", false);
  WriteTagSet(item, vpc);
}

void CreateVpc(Ec2Call& call, pugi::xml_node response) {
  std::string cidr_text = call.Require("CidrBlock");
  std::optional<Ipv4Cidr> cidr = ParseIpv4Cidr(cidr_text);
  if (!cidr) {
    throw InvalidParameterValue("Value (" + cidr_text + ") for parameter cidrBlock is invalid. This is not a valid CIDR block.");
  }
  if (cidr->prefix < 16 || cidr->prefix > 28) {
    throw ApiError(400, "InvalidVpc.Range", "The CIDR '" + cidr_text + "' is invalid.");
  }
  std::string tenancy = call.Get("InstanceTenancy", "default");
  if (tenancy != "default" && tenancy != "dedicated" && tenancy != "host") {
    throw InvalidParameterValue("Value (" + tenancy + ") for parameter instanceTenancy is invalid.");
  }
  Json vpc = NewObject(call, kVpcKind);
  vpc["cidrBlock"] = cidr->ToString();
  vpc["cidrAssociationId"] = call.world().NewId("vpc-cidr-assoc");
  vpc["dhcpOptionsId"] = DhcpOptionsId(call);
  vpc["instanceTenancy"] = tenancy;
  for (const VpcAttribute& attribute : kAttributes) vpc[attribute.name] = attribute.initial;
  vpc["tags"] = TagsFromSpecifications(call, "vpc");
  Save(call, kVpcKind, vpc);
  CreateMainRouteTable(call, vpc);
  CreateDefaultSecurityGroup(call, vpc);
  WriteVpc(call, AddChild(response, "vpc"), vpc);
}

std::optional<std::vector<std::string>> VpcFields(const Json& vpc, const std::string& name) {
  using V = std::vector<std::string>;
  if (name == "vpc-id") return V{vpc["id"]};
  if (name == "cidr" || name == "cidr-block-association.cidr-block") return V{vpc["cidrBlock"]};
  if (name == "cidr-block-association.association-id") return V{vpc["cidrAssociationId"]};
  if (name == "cidr-block-association.state") return V{"associated"};
  if (name == "state") return V{"available"};
  if (name == "is-default") return V{"false"};
  if (name == "dhcp-options-id") return V{vpc["dhcpOptionsId"]};
  return std::nullopt;
}

void DescribeVpcs(Ec2Call& call, pugi::xml_node response) {
  auto fields = [&](const Json& vpc, const std::string& name) -> std::optional<std::vector<std::string>> {
    if (name == "owner-id") return std::vector<std::string>{call.account()};
    return VpcFields(vpc, name);
  };
  pugi::xml_node set = AddChild(response, "vpcSet");
  for (const Json& vpc : SelectObjects(call, kVpcKind, ListIn(call, kVpcKind), "VpcId", fields)) {
    WriteVpc(call, AddItem(set), vpc);
  }
}

bool InVpc(const Json& object, const std::string& vpc_id) { return object.value("vpcId", "") == vpc_id; }

void DeleteVpc(Ec2Call& call, pugi::xml_node response) {
  std::string id = call.Require("VpcId");
  Require(call, kVpcKind, id);
  for (const Json& subnet : ListIn(call, kSubnetKind)) {
    if (InVpc(subnet, id)) throw HasDependencies("vpc", id);
  }
  for (const Json& gateway : ListIn(call, kInternetGatewayKind)) {
    if (InVpc(gateway, id)) throw HasDependencies("vpc", id);
  }
  std::vector<Json> tables, groups;
  for (const Json& table : ListIn(call, kRouteTableKind)) {
    if (!InVpc(table, id)) continue;
    if (!IsMainRouteTable(table)) throw HasDependencies("vpc", id);
    tables.push_back(table);
  }
  for (const Json& group : ListIn(call, kSecurityGroupKind)) {
    if (!InVpc(group, id)) continue;
    if (group["groupName"] != "default") throw HasDependencies("vpc", id);
    groups.push_back(group);
  }
  for (const Json& table : tables) Remove(call, kRouteTableKind, table["id"]);
  for (const Json& group : groups) EraseSecurityGroup(call, group["id"]);
  Remove(call, kVpcKind, id);
  AddReturnTrue(response);
}

void ModifyVpcAttribute(Ec2Call& call, pugi::xml_node response) {
  Json vpc = Require(call, kVpcKind, call.Require("VpcId"));
  const VpcAttribute* chosen = nullptr;
  for (const VpcAttribute& attribute : kAttributes) {
    if (!call.Has(std::string(attribute.param) + ".Value")) continue;
    if (chosen) {
      throw ApiError(400, "InvalidParameterCombination",
                     std::string("Fields for multiple attribute types specified: ") + chosen->name + ", " + attribute.name);
    }
    chosen = &attribute;
  }
  if (!chosen) throw MissingParameter("EnableDnsSupport");
  std::string param = std::string(chosen->param) + ".Value";
  vpc[chosen->name] = call.GetBool(param, chosen->initial);
  Save(call, kVpcKind, vpc);
  AddReturnTrue(response);
}

void DescribeVpcAttribute(Ec2Call& call, pugi::xml_node response) {
  Json vpc = Require(call, kVpcKind, call.Require("VpcId"));
  std::string name = call.Require("Attribute");
  for (const VpcAttribute& attribute : kAttributes) {
    if (name != attribute.name) continue;
    AddText(response, "vpcId", vpc["id"]);
    AddBool(AddChild(response, attribute.name), "value", vpc.value(attribute.name, attribute.initial));
    return;
  }
  throw InvalidParameterValue("Value (" + name + ") for parameter attribute is invalid. Unknown attribute.");
}

}  // namespace

void AddVpcActions(Ec2Actions& actions) {
  actions["CreateVpc"] = CreateVpc;
  actions["DescribeVpcs"] = DescribeVpcs;
  actions["DeleteVpc"] = DeleteVpc;
  actions["ModifyVpcAttribute"] = ModifyVpcAttribute;
  actions["DescribeVpcAttribute"] = DescribeVpcAttribute;
}

}  // namespace strata::sandbox
