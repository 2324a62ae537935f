// Elastic IPs: AllocateAddress (public addresses from the documentation ranges, unique
// across the sandbox), DescribeAddresses (with the NAT gateway association, if any),
// ReleaseAddress (refused while a NAT gateway holds the address).

#include <algorithm>
#include <set>

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_cidr.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_nat_gateways.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

// RFC 5737's documentation networks: never routable, so never someone's real address.
constexpr const char* kPools[] = {"203.0.113.0/24", "198.51.100.0/24", "192.0.2.0/24"};

std::string FreePublicIp(const Ec2Call& call) {
  std::set<std::string> taken;
  for (const auto& [id, address] : call.world().List(kAddressKind.store)) taken.insert(address["publicIp"]);
  for (const char* pool : kPools) {
    Ipv4Cidr cidr = *ParseIpv4Cidr(pool);
    for (uint32_t host = 1; host < cidr.Size() - 1; ++host) {
      std::string ip = cidr.AddressAt(host);
      if (!taken.count(ip)) return ip;
    }
  }
  throw ApiError(400, "AddressLimitExceeded", "The maximum number of addresses has been reached.");
}

void AllocateAddress(Ec2Call& call, pugi::xml_node response) {
  std::string domain = call.Get("Domain", "vpc");
  if (domain != "vpc") throw InvalidParameterValue("Value (" + domain + ") for parameter domain is invalid.");
  Json address = NewObject(call, kAddressKind);
  address["publicIp"] = FreePublicIp(call);
  address["tags"] = TagsFromSpecifications(call, "elastic-ip");
  Save(call, kAddressKind, address);
  AddText(response, "publicIp", address["publicIp"]);
  AddText(response, "domain", "vpc");
  AddText(response, "allocationId", address["id"]);
  AddText(response, "publicIpv4Pool", "amazon");
  AddText(response, "networkBorderGroup", call.region());
}

void WriteAddress(const Ec2Call& call, pugi::xml_node item, const Json& address,
                  const std::optional<Json>& nat) {
  AddText(item, "publicIp", address["publicIp"]);
  AddText(item, "allocationId", address["id"]);
  AddText(item, "domain", "vpc");
  if (nat) {
    AddText(item, "associationId", (*nat)["associationId"]);
    AddText(item, "networkInterfaceId", (*nat)["networkInterfaceId"]);
    AddText(item, "networkInterfaceOwnerId", call.account());
    AddText(item, "privateIpAddress", (*nat)["privateIp"]);
  }
  WriteTagSet(item, address);
  AddText(item, "publicIpv4Pool", "amazon");
  AddText(item, "networkBorderGroup", call.region());
}

void DescribeAddresses(Ec2Call& call, pugi::xml_node response) {
  std::vector<Json> addresses = ListIn(call, kAddressKind);
  std::vector<std::string> ips = call.NumberedList("PublicIp");
  for (const std::string& ip : ips) {
    bool known = false;
    for (const Json& address : addresses) known = known || address["publicIp"] == ip;
    if (!known) throw ApiError(400, "InvalidAddress.NotFound", "Address '" + ip + "' not found.");
  }
  auto fields = [&](const Json& a, const std::string& name) -> std::optional<std::vector<std::string>> {
    using V = std::vector<std::string>;
    if (name == "allocation-id") return V{a["id"]};
    if (name == "public-ip") return V{a["publicIp"]};
    if (name == "domain") return V{"vpc"};
    if (name == "network-border-group") return V{call.region()};
    if (name == "public-ipv4-pool") return V{"amazon"};
    std::optional<Json> nat = NatGatewayUsingAddress(call, a["id"]);
    if (name == "association-id") return nat ? V{(*nat)["associationId"]} : V{};
    if (name == "network-interface-id") return nat ? V{(*nat)["networkInterfaceId"]} : V{};
    if (name == "private-ip-address") return nat ? V{(*nat)["privateIp"]} : V{};
    if (name == "network-interface-owner-id") return nat ? V{call.account()} : V{};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "addressesSet");
  for (const Json& address : SelectObjects(call, kAddressKind, addresses, "AllocationId", fields)) {
    if (!ips.empty() && std::find(ips.begin(), ips.end(), address["publicIp"]) == ips.end()) continue;
    WriteAddress(call, AddItem(set), address, NatGatewayUsingAddress(call, address["id"]));
  }
}

void ReleaseAddress(Ec2Call& call, pugi::xml_node response) {
  if (!call.Has("AllocationId") && call.Has("PublicIp")) {
    throw InvalidParameterValue("You must specify an allocation id when releasing a VPC elastic IP address");
  }
  Json address = Require(call, kAddressKind, call.Require("AllocationId"));
  std::optional<Json> nat = NatGatewayUsingAddress(call, address["id"]);
  if (nat && NatGatewayState(call, *nat) == "deleting") {
    // The gateway's interface, which AWS manages, still holds the address.
    throw ApiError(400, "AuthFailure", "You do not have permission to access the specified resource.");
  }
  if (nat) {
    throw ApiError(400, "InvalidIPAddress.InUse", "Address " + address["publicIp"].get<std::string>() + " is in use.");
  }
  Remove(call, kAddressKind, address["id"]);
  AddReturnTrue(response);
}

}  // namespace

void AddAddressActions(Ec2Actions& actions) {
  actions["AllocateAddress"] = AllocateAddress;
  actions["DescribeAddresses"] = DescribeAddresses;
  actions["ReleaseAddress"] = ReleaseAddress;
}

}  // namespace strata::sandbox
