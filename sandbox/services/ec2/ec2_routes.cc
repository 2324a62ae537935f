// CreateRoute, ReplaceRoute and DeleteRoute, and how routes are shown and filtered. A route
// is {"destination": element, "cidr", "target": element, "targetId", "origin"}.

#include "sandbox/services/ec2/ec2_routes.h"

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_cidr.h"
#include "sandbox/services/ec2/ec2_nat_gateways.h"

namespace strata::sandbox {
namespace {

//! One kind of route target: its parameter, its response element, and the error for an id
//! that does not exist (the sandbox makes only internet and NAT gateways, so any other
//! target is unknown).
struct RouteTarget {
  const char* param;
  const char* element;
  const char* filter;  //!< "route.<filter>"
  const char* not_found_code;
  const char* noun;  //!< "The <noun> ID '<id>' does not exist"
};
constexpr RouteTarget kTargets[] = {
    {"GatewayId", "gatewayId", "gateway-id", "InvalidGatewayID.NotFound", "gateway"},
    {"NatGatewayId", "natGatewayId", "nat-gateway-id", "InvalidNatGatewayID.NotFound", "natGateway"},
    {"EgressOnlyInternetGatewayId", "egressOnlyInternetGatewayId", "egress-only-internet-gateway-id",
     "InvalidGatewayID.NotFound", "gateway"},
    {"InstanceId", "instanceId", "instance-id", "InvalidInstanceID.NotFound", "instance"},
    {"NetworkInterfaceId", "networkInterfaceId", "network-interface-id", "InvalidNetworkInterfaceID.NotFound",
     "networkInterface"},
    {"VpcPeeringConnectionId", "vpcPeeringConnectionId", "vpc-peering-connection-id",
     "InvalidVpcPeeringConnectionID.NotFound", "vpcPeeringConnection"},
    {"TransitGatewayId", "transitGatewayId", "transit-gateway-id", "InvalidTransitGatewayID.NotFound",
     "transitGateway"},
    {"LocalGatewayId", "localGatewayId", "local-gateway-id", "InvalidLocalGatewayID.NotFound", "localGateway"},
    {"CarrierGatewayId", "carrierGatewayId", "carrier-gateway-id", "InvalidCarrierGatewayID.NotFound",
     "carrierGateway"},
    {"VpcEndpointId", "vpcEndpointId", "vpc-endpoint-id", "InvalidVpcEndpointId.NotFound", "vpcEndpoint"},
};

struct Destination {
  std::string element;  //!< "destinationCidrBlock" or "destinationIpv6CidrBlock"
  std::string cidr;
};

Destination ReadDestination(const Ec2Call& call) {
  if (call.Has("DestinationCidrBlock")) {
    std::string text = call.Get("DestinationCidrBlock");
    std::optional<Ipv4Cidr> cidr = ParseIpv4Cidr(text);
    if (!cidr) {
      throw InvalidParameterValue("Value (" + text + ") for parameter destinationCidrBlock is invalid. This is not a valid CIDR block.");
    }
    return {"destinationCidrBlock", cidr->ToString()};
  }
  if (call.Has("DestinationIpv6CidrBlock")) {
    std::string text = call.Get("DestinationIpv6CidrBlock");
    if (text.find(':') == std::string::npos || text.find('/') == std::string::npos) {
      throw InvalidParameterValue("Value (" + text + ") for parameter destinationIpv6CidrBlock is invalid. This is not a valid CIDR block.");
    }
    return {"destinationIpv6CidrBlock", text};
  }
  throw MissingParameter("DestinationCidrBlock");
}

std::string TargetList() {
  std::string out;
  for (const RouteTarget& t : kTargets) out += (out.empty() ? "" : ", ") + std::string(t.element);
  return out;
}

//! The call's one target; throws when it names none, several, or one that does not exist.
std::pair<const RouteTarget*, std::string> ReadTarget(const Ec2Call& call, const Json& table, bool local_ok) {
  const RouteTarget* chosen = nullptr;
  for (const RouteTarget& target : kTargets) {
    if (!call.Has(target.param)) continue;
    if (chosen) {
      throw ApiError(400, "InvalidParameterCombination", "The request must contain exactly one of " + TargetList());
    }
    chosen = &target;
  }
  if (!chosen) throw ApiError(400, "MissingParameter", "The request must contain exactly one of " + TargetList());
  std::string id = call.Get(chosen->param), element = chosen->element;
  auto missing = [&] {
    return ApiError(400, chosen->not_found_code, "The " + std::string(chosen->noun) + " ID '" + id + "' does not exist");
  };
  if (element == "gatewayId" && id == "local" && local_ok) return {chosen, id};
  if (element == "gatewayId" && id.rfind("igw-", 0) == 0) {
    std::optional<Json> gateway = Find(call, kInternetGatewayKind, id);
    if (!gateway) throw missing();
    if (gateway->value("vpcId", "") != table["vpcId"]) {
      throw InvalidParameterValue("route table " + table["id"].get<std::string>() + " and network gateway " + id +
                                  " belong to different networks");
    }
    return {chosen, id};
  }
  if (element == "natGatewayId") {
    std::optional<Json> nat = Find(call, kNatGatewayKind, id);
    if (!nat || NatGatewayGone(call, *nat)) throw missing();
    return {chosen, id};
  }
  throw missing();
}

bool IsLocal(const Json& route) { return route["origin"] == "CreateRouteTable"; }

//! The index of the table's route to `destination`, or -1.
int RouteIndex(const Json& table, const Destination& destination) {
  for (size_t i = 0; i < table["routes"].size(); ++i) {
    const Json& route = table["routes"][i];
    if (route["destination"] == destination.element && route["cidr"] == destination.cidr) return static_cast<int>(i);
  }
  return -1;
}

std::string RouteState(const Ec2Call& call, const Json& table, const Json& route) {
  std::string target = route["target"], id = route["targetId"];
  if (target == "gatewayId" && id == "local") return "active";
  if (target == "gatewayId") {
    std::optional<Json> gateway = Find(call, kInternetGatewayKind, id);
    return gateway && gateway->value("vpcId", "") == table["vpcId"] ? "active" : "blackhole";
  }
  if (target == "natGatewayId") {
    std::optional<Json> nat = Find(call, kNatGatewayKind, id);
    return nat && !NatGatewayGone(call, *nat) ? "active" : "blackhole";
  }
  return "blackhole";
}

void CreateRoute(Ec2Call& call, pugi::xml_node response) {
  Json table = Require(call, kRouteTableKind, call.Require("RouteTableId"));
  Destination destination = ReadDestination(call);
  if (RouteIndex(table, destination) >= 0) {
    throw ApiError(400, "RouteAlreadyExists", "The route identified by " + destination.cidr + " already exists.");
  }
  auto [target, id] = ReadTarget(call, table, false);
  Json vpc = Require(call, kVpcKind, table["vpcId"]);
  std::optional<Ipv4Cidr> cidr = ParseIpv4Cidr(destination.cidr);
  if (cidr && ParseIpv4Cidr(vpc["cidrBlock"])->Contains(*cidr)) {
    throw InvalidParameterValue("The destination CIDR block " + destination.cidr +
                                " is equal to or more specific than one of this VPC's CIDR blocks. This route "
                                "can target only an interface or an instance.");
  }
  table["routes"].push_back({{"destination", destination.element}, {"cidr", destination.cidr},
                             {"target", target->element}, {"targetId", id}, {"origin", "CreateRoute"}});
  Save(call, kRouteTableKind, table);
  AddReturnTrue(response);
}

void ReplaceRoute(Ec2Call& call, pugi::xml_node response) {
  Json table = Require(call, kRouteTableKind, call.Require("RouteTableId"));
  Destination destination = ReadDestination(call);
  int index = RouteIndex(table, destination);
  if (index < 0) {
    throw ApiError(400, "InvalidRoute.NotFound", "There is no route defined for '" + destination.cidr +
                                                     "' in the route table. Use CreateRoute instead.");
  }
  Json& route = table["routes"][static_cast<size_t>(index)];
  auto [target, id] = ReadTarget(call, table, IsLocal(route));
  route["target"] = target->element;
  route["targetId"] = id;
  Save(call, kRouteTableKind, table);
  AddReturnTrue(response);
}

void DeleteRoute(Ec2Call& call, pugi::xml_node response) {
  Json table = Require(call, kRouteTableKind, call.Require("RouteTableId"));
  Destination destination = ReadDestination(call);
  std::string table_id = table["id"];
  int index = RouteIndex(table, destination);
  std::string filter = destination.element == "destinationCidrBlock" ? "destination-cidr-block" : "destination-ipv6-cidr-block";
  if (index < 0) {
    throw ApiError(400, "InvalidRoute.NotFound",
                   "no route with " + filter + " " + destination.cidr + " in route table " + table_id);
  }
  if (IsLocal(table["routes"][static_cast<size_t>(index)])) {
    throw InvalidParameterValue("cannot remove local route " + destination.cidr + " in route table " + table_id);
  }
  table["routes"].erase(static_cast<size_t>(index));
  Save(call, kRouteTableKind, table);
  AddReturnTrue(response);
}

}  // namespace

Json LocalRoute(const Json& vpc) {
  return {{"destination", "destinationCidrBlock"}, {"cidr", vpc["cidrBlock"]}, {"target", "gatewayId"},
          {"targetId", "local"}, {"origin", "CreateRouteTable"}};
}

void WriteRoute(const Ec2Call& call, pugi::xml_node item, const Json& table, const Json& route) {
  std::string destination = route["destination"], target = route["target"];
  AddText(item, destination.c_str(), route["cidr"]);
  AddText(item, target.c_str(), route["targetId"]);
  AddText(item, "origin", route["origin"]);
  AddText(item, "state", RouteState(call, table, route));
}

std::optional<std::vector<std::string>> RouteFields(const Ec2Call& call, const Json& table, const std::string& name) {
  std::string field = name.substr(6);  // after "route."
  bool known = field == "destination-cidr-block" || field == "destination-ipv6-cidr-block" || field == "origin" ||
               field == "state";
  for (const RouteTarget& target : kTargets) known = known || field == target.filter;
  if (!known) return std::nullopt;
  std::vector<std::string> out;
  for (const Json& route : table["routes"]) {
    if (field == "destination-cidr-block" && route["destination"] == "destinationCidrBlock") out.push_back(route["cidr"]);
    if (field == "destination-ipv6-cidr-block" && route["destination"] == "destinationIpv6CidrBlock") {
      out.push_back(route["cidr"]);
    }
    if (field == "origin") out.push_back(route["origin"]);
    if (field == "state") out.push_back(RouteState(call, table, route));
    for (const RouteTarget& target : kTargets) {
      if (field == target.filter && route["target"] == target.element) out.push_back(route["targetId"]);
    }
  }
  return out;
}

void AddRouteActions(Ec2Actions& actions) {
  actions["CreateRoute"] = CreateRoute;
  actions["ReplaceRoute"] = ReplaceRoute;
  actions["DeleteRoute"] = DeleteRoute;
}

}  // namespace strata::sandbox
