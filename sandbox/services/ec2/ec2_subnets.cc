// Subnets: CreateSubnet (inside the VPC's CIDR, clear of its other subnets, in one of the
// region's zones), DescribeSubnets, ModifySubnetAttribute, DeleteSubnet.

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_availability_zones.h"
#include "sandbox/services/ec2/ec2_cidr.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_nat_gateways.h"
#include "sandbox/services/ec2/ec2_route_tables.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

// AWS keeps the first four addresses and the last one of every subnet.
constexpr int64_t kReservedAddresses = 5;

int64_t AvailableAddresses(const Ec2Call& call, const Json& subnet) {
  int64_t used = 0;
  for (const Json& nat : ListIn(call, kNatGatewayKind)) {
    if (nat["subnetId"] == subnet["id"] && !NatGatewayGone(call, nat)) ++used;
  }
  auto size = static_cast<int64_t>(ParseIpv4Cidr(subnet["cidrBlock"])->Size());
  return size - kReservedAddresses - used;
}

void WriteSubnet(const Ec2Call& call, pugi::xml_node item, const Json& subnet) {
  std::string id = subnet["id"];
  AddText(item, "subnetId", id);
  AddText(item, "subnetArn", Ec2Arn(call, kSubnetKind, id));
  AddText(item, "state", "available");
  AddText(item, "vpcId", subnet["vpcId"]);
  AddText(item, "cidrBlock", subnet["cidrBlock"]);
  AddChild(item, "ipv6CidrBlockAssociationSet");
  AddText(item, "availableIpAddressCount", std::to_string(AvailableAddresses(call, subnet)));
  AddText(item, "availabilityZone", subnet["availabilityZone"]);
  AddText(item, "availabilityZoneId", subnet["availabilityZoneId"]);
  AddBool(item, "defaultForAz", false);
  AddBool(item, "mapPublicIpOnLaunch", subnet["mapPublicIpOnLaunch"]);
  AddBool(item, "mapCustomerOwnedIpOnLaunch", false);
  AddBool(item, "assignIpv6AddressOnCreation", false);
  AddBool(item, "ipv6Native", false);
  AddBool(item, "enableDns64", false);
  AddText(item, "ownerId", call.account());
  pugi::xml_node dns = AddChild(item, "privateDnsNameOptionsOnLaunch");
  AddText(dns, "hostnameType", "ip-name");
  AddBool(dns, "enableResourceNameDnsARecord", false);
  AddBool(dns, "enableResourceNameDnsAAAARecord", false);
  WriteTagSet(item, subnet);
}

AvailabilityZone ChooseZone(const Ec2Call& call) {
  std::vector<AvailabilityZone> zones = ZonesOf(call.region());
  std::string wanted = call.Get("AvailabilityZone", call.Get("AvailabilityZoneId"));
  if (wanted.empty()) return zones.front();
  std::optional<AvailabilityZone> zone = FindZone(call.region(), wanted);
  if (zone) return *zone;
  std::string names;
  for (const AvailabilityZone& z : zones) names += (names.empty() ? "" : ", ") + z.name;
  throw InvalidParameterValue("Value (" + wanted + ") for parameter availabilityZone is invalid. Subnets can currently only be created in the following availability zones: " + names + ".");
}

void CreateSubnet(Ec2Call& call, pugi::xml_node response) {
  std::string vpc_id = call.Require("VpcId");
  std::string cidr_text = call.Require("CidrBlock");
  Json vpc = Require(call, kVpcKind, vpc_id);
  std::optional<Ipv4Cidr> cidr = ParseIpv4Cidr(cidr_text);
  if (!cidr) {
    throw InvalidParameterValue("Value (" + cidr_text + ") for parameter cidrBlock is invalid. This is not a valid CIDR block.");
  }
  if (cidr->prefix < 16 || cidr->prefix > 28 || !ParseIpv4Cidr(vpc["cidrBlock"])->Contains(*cidr)) {
    throw ApiError(400, "InvalidSubnet.Range", "The CIDR '" + cidr_text + "' is invalid.");
  }
  for (const Json& other : ListIn(call, kSubnetKind)) {
    if (other["vpcId"] == vpc_id && ParseIpv4Cidr(other["cidrBlock"])->Overlaps(*cidr)) {
      throw ApiError(400, "InvalidSubnet.Conflict", "The CIDR '" + cidr_text + "' conflicts with another subnet");
    }
  }
  AvailabilityZone zone = ChooseZone(call);
  Json subnet = NewObject(call, kSubnetKind);
  subnet["vpcId"] = vpc_id;
  subnet["cidrBlock"] = cidr->ToString();
  subnet["availabilityZone"] = zone.name;
  subnet["availabilityZoneId"] = zone.id;
  subnet["mapPublicIpOnLaunch"] = false;
  subnet["addressesHandedOut"] = 0;
  subnet["tags"] = TagsFromSpecifications(call, "subnet");
  Save(call, kSubnetKind, subnet);
  WriteSubnet(call, AddChild(response, "subnet"), subnet);
}

void DescribeSubnets(Ec2Call& call, pugi::xml_node response) {
  auto fields = [&](const Json& s, const std::string& name) -> std::optional<std::vector<std::string>> {
    using V = std::vector<std::string>;
    if (name == "subnet-id") return V{s["id"]};
    if (name == "vpc-id") return V{s["vpcId"]};
    if (name == "cidr-block" || name == "cidr" || name == "cidrBlock") return V{s["cidrBlock"]};
    if (name == "availability-zone" || name == "availabilityZone") return V{s["availabilityZone"]};
    if (name == "availability-zone-id") return V{s["availabilityZoneId"]};
    if (name == "state") return V{"available"};
    if (name == "map-public-ip-on-launch") return V{BoolValue(s["mapPublicIpOnLaunch"])};
    if (name == "default-for-az" || name == "defaultForAz") return V{"false"};
    if (name == "owner-id") return V{call.account()};
    if (name == "subnet-arn") return V{Ec2Arn(call, kSubnetKind, s["id"])};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "subnetSet");
  for (const Json& subnet : SelectObjects(call, kSubnetKind, ListIn(call, kSubnetKind), "SubnetId", fields)) {
    WriteSubnet(call, AddItem(set), subnet);
  }
}

void ModifySubnetAttribute(Ec2Call& call, pugi::xml_node response) {
  Json subnet = Require(call, kSubnetKind, call.Require("SubnetId"));
  if (call.Has("MapPublicIpOnLaunch.Value")) {
    subnet["mapPublicIpOnLaunch"] = call.GetBool("MapPublicIpOnLaunch.Value", false);
  }
  Save(call, kSubnetKind, subnet);
  AddReturnTrue(response);
}

void DeleteSubnet(Ec2Call& call, pugi::xml_node response) {
  std::string id = call.Require("SubnetId");
  Require(call, kSubnetKind, id);
  for (const Json& nat : ListIn(call, kNatGatewayKind)) {
    if (nat["subnetId"] == id && !NatGatewayGone(call, nat)) throw HasDependencies("subnet", id);
  }
  // A subnet's route table association goes with it.
  DropSubnetAssociations(call, id);
  Remove(call, kSubnetKind, id);
  AddReturnTrue(response);
}

}  // namespace

void AddSubnetActions(Ec2Actions& actions) {
  actions["CreateSubnet"] = CreateSubnet;
  actions["DescribeSubnets"] = DescribeSubnets;
  actions["ModifySubnetAttribute"] = ModifySubnetAttribute;
  actions["DeleteSubnet"] = DeleteSubnet;
}

}  // namespace strata::sandbox
