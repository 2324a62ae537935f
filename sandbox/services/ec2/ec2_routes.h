#pragma once
// Routes inside a route table: the local route every table starts with, how a route is
// written (its state is "blackhole" once its gateway is gone), the route.* filters, and
// CreateRoute / ReplaceRoute / DeleteRoute.

#include <optional>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! The route to the VPC's own CIDR: gatewayId "local", origin CreateRouteTable.
Json LocalRoute(const Json& vpc);
//! Appends one routeSet item.
void WriteRoute(const Ec2Call& call, pugi::xml_node item, const Json& table, const Json& route);
//! The table's values for a "route.*" filter; nullopt for a name EC2 does not have.
std::optional<std::vector<std::string>> RouteFields(const Ec2Call& call, const Json& table, const std::string& name);

void AddRouteActions(Ec2Actions& actions);

}  // namespace strata::sandbox
