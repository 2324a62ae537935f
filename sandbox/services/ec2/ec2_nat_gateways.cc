// NAT gateways: CreateNatGateway (idempotent by ClientToken), DescribeNatGateways,
// DeleteNatGateway; states follow the clock (see ec2_nat_gateways.h).

#include "sandbox/services/ec2/ec2_nat_gateways.h"

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_cidr.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

// AWS keeps deleted (and failed) gateways visible for about an hour.
constexpr int64_t kRetentionMillis = 60 * 60 * 1000;

int64_t DelayMillis(const Ec2Call& call) { return call.settings().nat_gateway_delay.count(); }

std::string TimeText(int64_t millis) {
  return IsoTime(std::chrono::system_clock::time_point(std::chrono::milliseconds(millis)));
}

// A public gateway needs an internet gateway attached to its VPC before it is provisioned.
bool InternetReachable(const Ec2Call& call, const Json& nat) {
  if (nat["connectivityType"] != "public") return true;
  int64_t ready_at = nat["createdAt"].get<int64_t>() + DelayMillis(call);
  for (const Json& gateway : ListIn(call, kInternetGatewayKind)) {
    if (gateway.value("vpcId", "") == nat["vpcId"] && gateway.value("attachedAt", int64_t{0}) <= ready_at) return true;
  }
  return false;
}

//! Visible: not deleted (or failed) longer ago than the retention time.
bool Visible(const Ec2Call& call, const Json& nat) {
  int64_t end = nat.contains("deletedAt") ? nat["deletedAt"].get<int64_t>() + DelayMillis(call)
                                          : nat["createdAt"].get<int64_t>() + DelayMillis(call);
  std::string state = NatGatewayState(call, nat);
  return (state != "deleted" && state != "failed") || call.NowMillis() < end + kRetentionMillis;
}

std::vector<Json> VisibleGateways(const Ec2Call& call) {
  std::vector<Json> out;
  for (Json& nat : ListIn(call, kNatGatewayKind)) {
    if (Visible(call, nat)) out.push_back(std::move(nat));
  }
  return out;
}

void WriteNatGateway(const Ec2Call& call, pugi::xml_node item, const Json& nat) {
  std::string state = NatGatewayState(call, nat);
  AddText(item, "createTime", TimeText(nat["createdAt"]));
  if (nat.contains("deletedAt")) AddText(item, "deleteTime", TimeText(nat["deletedAt"]));
  if (state == "failed") {
    AddText(item, "failureCode", "Gateway.NotAttached");
    AddText(item, "failureMessage", "Network " + nat["vpcId"].get<std::string>() + " has no Internet gateway attached");
  }
  pugi::xml_node address = AddItem(AddChild(item, "natGatewayAddressSet"));
  if (nat["connectivityType"] == "public") {
    AddText(address, "allocationId", nat["allocationId"]);
    AddText(address, "associationId", nat["associationId"]);
  }
  AddText(address, "networkInterfaceId", nat["networkInterfaceId"]);
  AddText(address, "privateIp", nat["privateIp"]);
  if (nat["connectivityType"] == "public") AddText(address, "publicIp", nat["publicIp"]);
  AddBool(address, "isPrimary", true);
  const char* status = state == "pending" ? "associating" : state == "deleting" ? "disassociating" : "succeeded";
  AddText(address, "status", status);
  AddText(item, "natGatewayId", nat["id"]);
  AddText(item, "state", state);
  AddText(item, "subnetId", nat["subnetId"]);
  AddText(item, "vpcId", nat["vpcId"]);
  WriteTagSet(item, nat);
  AddText(item, "connectivityType", nat["connectivityType"]);
}

//! What a retry with the same ClientToken must repeat to get the same gateway.
Json IdempotentRequest(const Ec2Call& call) {
  return {{"SubnetId", call.Get("SubnetId")},
          {"AllocationId", call.Get("AllocationId")},
          {"ConnectivityType", call.Get("ConnectivityType", "public")},
          {"Tags", TagsFromSpecifications(call, "natgateway")}};
}

Json NewGateway(const Ec2Call& call, const Json& request) {
  std::string connectivity = request["ConnectivityType"];
  if (connectivity != "public" && connectivity != "private") {
    throw InvalidParameterValue("Value (" + connectivity + ") for parameter connectivityType is invalid.");
  }
  Json subnet = Require(call, kSubnetKind, call.Require("SubnetId"));
  Json nat = NewObject(call, kNatGatewayKind);
  if (connectivity == "public") {
    Json address = Require(call, kAddressKind, call.Require("AllocationId"));
    if (NatGatewayUsingAddress(call, address["id"])) {
      throw ApiError(400, "Resource.AlreadyAssociated",
                     "Elastic IP address [" + address["id"].get<std::string>() + "] is already associated");
    }
    nat["allocationId"] = address["id"];
    nat["publicIp"] = address["publicIp"];
    nat["associationId"] = call.world().NewId("eipassoc");
  }
  // The gateway's interface takes the subnet's next free address after the reserved four.
  int handed_out = subnet.value("addressesHandedOut", 0);
  subnet["addressesHandedOut"] = handed_out + 1;
  Save(call, kSubnetKind, subnet);
  nat["privateIp"] = ParseIpv4Cidr(subnet["cidrBlock"])->AddressAt(4 + static_cast<uint32_t>(handed_out));
  nat["networkInterfaceId"] = call.world().NewId("eni");
  nat["subnetId"] = subnet["id"];
  nat["vpcId"] = subnet["vpcId"];
  nat["connectivityType"] = connectivity;
  nat["createdAt"] = call.NowMillis();
  nat["tags"] = request["Tags"];
  return nat;
}

void CreateNatGateway(Ec2Call& call, pugi::xml_node response) {
  std::string token = call.Get("ClientToken");
  Json request = IdempotentRequest(call);
  std::optional<Json> nat;
  if (!token.empty()) {
    for (Json& earlier : ListIn(call, kNatGatewayKind)) {
      if (earlier.value("clientToken", "") != token) continue;
      if (earlier["request"] != request) {
        throw ApiError(400, "IdempotentParameterMismatch",
                       "Client token already used before with different parameters.");
      }
      nat = std::move(earlier);
      break;
    }
  }
  if (!nat) {
    nat = NewGateway(call, request);
    if (!token.empty()) (*nat)["clientToken"] = token, (*nat)["request"] = request;
    Save(call, kNatGatewayKind, *nat);
  }
  if (!token.empty()) AddText(response, "clientToken", token);
  WriteNatGateway(call, AddChild(response, "natGateway"), *nat);
}

void DescribeNatGateways(Ec2Call& call, pugi::xml_node response) {
  auto fields = [&](const Json& nat, const std::string& name) -> std::optional<std::vector<std::string>> {
    using V = std::vector<std::string>;
    if (name == "nat-gateway-id") return V{nat["id"]};
    if (name == "state") return V{NatGatewayState(call, nat)};
    if (name == "subnet-id") return V{nat["subnetId"]};
    if (name == "vpc-id") return V{nat["vpcId"]};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "natGatewaySet");
  for (const Json& nat : SelectObjects(call, kNatGatewayKind, VisibleGateways(call), "NatGatewayId", fields)) {
    WriteNatGateway(call, AddItem(set), nat);
  }
}

void DeleteNatGateway(Ec2Call& call, pugi::xml_node response) {
  std::string id = call.Require("NatGatewayId");
  Json nat = Require(call, kNatGatewayKind, id);
  if (!Visible(call, nat) || NatGatewayState(call, nat) == "deleted") throw NotFound(kNatGatewayKind, id);
  if (!nat.contains("deletedAt")) {
    nat["deletedAt"] = call.NowMillis();
    Save(call, kNatGatewayKind, nat);
  }
  AddText(response, "natGatewayId", id);
}

}  // namespace

std::string NatGatewayState(const Ec2Call& call, const Json& nat) {
  int64_t now = call.NowMillis(), delay = DelayMillis(call);
  if (nat.contains("deletedAt")) return now >= nat["deletedAt"].get<int64_t>() + delay ? "deleted" : "deleting";
  if (now < nat["createdAt"].get<int64_t>() + delay) return "pending";
  return InternetReachable(call, nat) ? "available" : "failed";
}

bool NatGatewayGone(const Ec2Call& call, const Json& nat) {
  std::string state = NatGatewayState(call, nat);
  return state == "deleted" || state == "failed";
}

std::optional<Json> NatGatewayUsingAddress(const Ec2Call& call, const std::string& allocation_id) {
  for (Json& nat : ListIn(call, kNatGatewayKind)) {
    if (nat.value("allocationId", "") == allocation_id && !NatGatewayGone(call, nat)) return std::move(nat);
  }
  return std::nullopt;
}

void AddNatGatewayActions(Ec2Actions& actions) {
  actions["CreateNatGateway"] = CreateNatGateway;
  actions["DescribeNatGateways"] = DescribeNatGateways;
  actions["DeleteNatGateway"] = DeleteNatGateway;
}

}  // namespace strata::sandbox
