// Internet gateways: Create/Describe/DeleteInternetGateway and Attach/Detach to one VPC
// (a VPC has at most one; detaching is refused while public NAT gateways use it).

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_nat_gateways.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

std::string AttachedVpc(const Json& gateway) { return gateway.value("vpcId", ""); }

void WriteGateway(const Ec2Call& call, pugi::xml_node item, const Json& gateway) {
  pugi::xml_node attachments = AddChild(item, "attachmentSet");
  if (!AttachedVpc(gateway).empty()) {
    pugi::xml_node attachment = AddItem(attachments);
    AddText(attachment, "vpcId", AttachedVpc(gateway));
    AddText(attachment, "state", "available");
  }
  AddText(item, "internetGatewayId", gateway["id"]);
  AddText(item, "ownerId", call.account());
  WriteTagSet(item, gateway);
}

void CreateInternetGateway(Ec2Call& call, pugi::xml_node response) {
  Json gateway = NewObject(call, kInternetGatewayKind);
  gateway["vpcId"] = "";
  gateway["tags"] = TagsFromSpecifications(call, "internet-gateway");
  Save(call, kInternetGatewayKind, gateway);
  WriteGateway(call, AddChild(response, "internetGateway"), gateway);
}

void DescribeInternetGateways(Ec2Call& call, pugi::xml_node response) {
  auto fields = [&](const Json& g, const std::string& name) -> std::optional<std::vector<std::string>> {
    using V = std::vector<std::string>;
    bool attached = !AttachedVpc(g).empty();
    if (name == "internet-gateway-id") return V{g["id"]};
    if (name == "attachment.vpc-id") return attached ? V{AttachedVpc(g)} : V{};
    if (name == "attachment.state") return attached ? V{"available"} : V{};
    if (name == "owner-id") return V{call.account()};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "internetGatewaySet");
  std::vector<Json> gateways = ListIn(call, kInternetGatewayKind);
  for (const Json& gateway : SelectObjects(call, kInternetGatewayKind, gateways, "InternetGatewayId", fields)) {
    WriteGateway(call, AddItem(set), gateway);
  }
}

void AttachInternetGateway(Ec2Call& call, pugi::xml_node response) {
  Json gateway = Require(call, kInternetGatewayKind, call.Require("InternetGatewayId"));
  std::string vpc_id = call.Require("VpcId");
  Require(call, kVpcKind, vpc_id);
  std::string id = gateway["id"];
  if (!AttachedVpc(gateway).empty()) {
    throw ApiError(400, "Resource.AlreadyAssociated",
                   "resource " + id + " is already attached to network " + AttachedVpc(gateway));
  }
  for (const Json& other : ListIn(call, kInternetGatewayKind)) {
    if (AttachedVpc(other) == vpc_id) {
      throw ApiError(400, "Resource.AlreadyAssociated",
                     "Network " + vpc_id + " already has an internet gateway attached");
    }
  }
  gateway["vpcId"] = vpc_id;
  gateway["attachedAt"] = call.NowMillis();
  Save(call, kInternetGatewayKind, gateway);
  AddReturnTrue(response);
}

void DetachInternetGateway(Ec2Call& call, pugi::xml_node response) {
  Json gateway = Require(call, kInternetGatewayKind, call.Require("InternetGatewayId"));
  std::string vpc_id = call.Require("VpcId");
  Require(call, kVpcKind, vpc_id);
  std::string id = gateway["id"];
  if (AttachedVpc(gateway) != vpc_id) {
    throw ApiError(400, "Gateway.NotAttached", "resource " + id + " is not attached to network " + vpc_id);
  }
  for (const Json& nat : ListIn(call, kNatGatewayKind)) {
    if (nat["vpcId"] == vpc_id && nat["connectivityType"] == "public" && !NatGatewayGone(call, nat)) {
      throw ApiError(400, "DependencyViolation",
                     "Network " + vpc_id + " has some mapped public address(es). Please unmap those public "
                     "address(es) before detaching the gateway.");
    }
  }
  gateway["vpcId"] = "";
  gateway.erase("attachedAt");
  Save(call, kInternetGatewayKind, gateway);
  AddReturnTrue(response);
}

void DeleteInternetGateway(Ec2Call& call, pugi::xml_node response) {
  Json gateway = Require(call, kInternetGatewayKind, call.Require("InternetGatewayId"));
  if (!AttachedVpc(gateway).empty()) throw HasDependencies("internetGateway", gateway["id"]);
  Remove(call, kInternetGatewayKind, gateway["id"]);
  AddReturnTrue(response);
}

}  // namespace

void AddInternetGatewayActions(Ec2Actions& actions) {
  actions["CreateInternetGateway"] = CreateInternetGateway;
  actions["DescribeInternetGateways"] = DescribeInternetGateways;
  actions["AttachInternetGateway"] = AttachInternetGateway;
  actions["DetachInternetGateway"] = DetachInternetGateway;
  actions["DeleteInternetGateway"] = DeleteInternetGateway;
}

}  // namespace strata::sandbox
