#include "providers/aws/services/ec2/ec2_routes.h"

#include "providers/aws/services/ec2/ec2_api.h"
#include "providers/resource_type.h"

namespace strata::aws {
namespace {

struct Field {
  const char* inline_attr;
  const char* resource_attr;
  const char* param;
  const char* xml;
};

constexpr Field kDestinations[] = {
    {"cidr_block", "destination_cidr_block", "DestinationCidrBlock", "destinationCidrBlock"},
    {"ipv6_cidr_block", "destination_ipv6_cidr_block", "DestinationIpv6CidrBlock", "destinationIpv6CidrBlock"},
    {"destination_prefix_list_id", "destination_prefix_list_id", "DestinationPrefixListId", "destinationPrefixListId"},
};

// Gateway load balancer endpoints are written as VpcEndpointId but read back as a
// "vpce-" gatewayId (see TargetText).
constexpr Field kTargets[] = {
    {"carrier_gateway_id", "carrier_gateway_id", "CarrierGatewayId", "carrierGatewayId"},
    {"core_network_arn", "core_network_arn", "CoreNetworkArn", "coreNetworkArn"},
    {"egress_only_gateway_id", "egress_only_gateway_id", "EgressOnlyInternetGatewayId", "egressOnlyInternetGatewayId"},
    {"gateway_id", "gateway_id", "GatewayId", "gatewayId"},
    {"local_gateway_id", "local_gateway_id", "LocalGatewayId", "localGatewayId"},
    {"nat_gateway_id", "nat_gateway_id", "NatGatewayId", "natGatewayId"},
    {"network_interface_id", "network_interface_id", "NetworkInterfaceId", "networkInterfaceId"},
    {"transit_gateway_id", "transit_gateway_id", "TransitGatewayId", "transitGatewayId"},
    {"vpc_endpoint_id", "vpc_endpoint_id", "VpcEndpointId", "gatewayId"},
    {"vpc_peering_connection_id", "vpc_peering_connection_id", "VpcPeeringConnectionId", "vpcPeeringConnectionId"},
};

const char* Name(const Field& f, RouteNames names) {
  return names == RouteNames::Inline ? f.inline_attr : f.resource_attr;
}

bool IsEndpoint(const std::string& id) { return id.rfind("vpce-", 0) == 0; }

std::string TargetText(pugi::xml_node route, const Field& f) {
  std::string text = route.child_value(f.xml);
  if (std::string(f.xml) != "gatewayId") return text;
  bool endpoint_field = std::string(f.param) == "VpcEndpointId";
  return IsEndpoint(text) == endpoint_field ? text : "";
}

}  // namespace

const std::vector<std::string>& RouteTargetAttributes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Field& f : kTargets) out.push_back(f.inline_attr);
    return out;
  }();
  return names;
}

std::vector<std::string> RouteDestinationAttributes(RouteNames names) {
  std::vector<std::string> out;
  for (const Field& f : kDestinations) out.push_back(Name(f, names));
  return out;
}

std::vector<pugi::xml_node> ManagedRoutes(pugi::xml_node table) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node r : table.child("routeSet").children("item")) {
    if (std::string(r.child_value("gatewayId")) == "local") continue;
    if (std::string(r.child_value("origin")) == "EnableVgwRoutePropagation") continue;
    out.push_back(r);
  }
  return out;
}

std::string RouteDestination(pugi::xml_node route) {
  for (const Field& f : kDestinations) {
    std::string text = route.child_value(f.xml);
    if (!text.empty()) return text;
  }
  return "";
}

std::string RouteDestination(const Value& route, RouteNames names) {
  for (const Field& f : kDestinations) {
    std::string text = attrs::GetString(route, Name(f, names));
    if (!text.empty()) return text;
  }
  return "";
}

std::string RouteTarget(const Value& route) {
  for (const Field& f : kTargets) {
    std::string text = attrs::GetString(route, f.inline_attr);
    if (!text.empty()) return std::string(f.inline_attr) + " " + text;
  }
  return "";
}

Value RouteValue(pugi::xml_node route, RouteNames names) {
  ValueMap m;
  for (const Field& f : kDestinations) m[Name(f, names)] = Value::String(route.child_value(f.xml));
  for (const Field& f : kTargets) m[Name(f, names)] = Value::String(TargetText(route, f));
  return Value::Object(std::move(m));
}

Value CanonicalRoute(const Value& route, RouteNames names) {
  if (!route.IsMapping()) return route;
  ValueMap m = route.AsMap();
  auto fill = [&](const char* name) {
    Value& v = m[name];
    if (v.IsNull()) v = Value::String("");
  };
  for (const Field& f : kDestinations) fill(Name(f, names));
  for (const Field& f : kTargets) fill(Name(f, names));
  return Value::Object(std::move(m));
}

QueryRequest RouteCall(const std::string& action, const std::string& table_id, const Value& route,
                       RouteNames names) {
  QueryRequest call = Ec2Call(action);
  call.Add("RouteTableId", table_id);
  for (const Field& f : kDestinations) {
    std::string text = attrs::GetString(route, Name(f, names));
    if (!text.empty()) call.Add(f.param, text);
  }
  for (const Field& f : kTargets) {
    std::string text = attrs::GetString(route, Name(f, names));
    if (!text.empty()) call.Add(f.param, text);
  }
  return call;
}

QueryRequest DeleteRouteCall(const std::string& table_id, const std::string& destination) {
  QueryRequest call = Ec2Call("DeleteRoute");
  call.Add("RouteTableId", table_id);
  if (destination.find(':') != std::string::npos) {
    call.Add("DestinationIpv6CidrBlock", destination);
  } else if (destination.rfind("pl-", 0) == 0) {
    call.Add("DestinationPrefixListId", destination);
  } else {
    call.Add("DestinationCidrBlock", destination);
  }
  return call;
}

const char* InlineRouteSetType() {
  static const std::string type = [] {
    std::string t = "set(object({";
    bool first = true;
    for (const Field& f : kDestinations) {
      t += std::string(first ? "" : ", ") + f.inline_attr + "=optional(string)";
      first = false;
    }
    for (const Field& f : kTargets) t += std::string(", ") + f.inline_attr + "=optional(string)";
    return t + "}))";
  }();
  return type.c_str();
}

}  // namespace strata::aws
