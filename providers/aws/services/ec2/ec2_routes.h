#pragma once
// Routes as aws_route_table's inline `route` blocks and as aws_route see them: the
// destination and target attributes (Terraform's names), how they map to CreateRoute /
// ReplaceRoute / DeleteRoute parameters and to DescribeRouteTables' <routeSet> items.

#include <string>
#include <vector>

#include <pugixml.hpp>

#include "engine/value/value.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

//! Which attribute names a route value uses for its destination.
enum class RouteNames {
  Inline,    //!< aws_route_table's `route`: cidr_block, ipv6_cidr_block, destination_prefix_list_id
  Resource,  //!< aws_route: destination_cidr_block, destination_ipv6_cidr_block, ...
};

//! The target attributes shared by both (gateway_id, nat_gateway_id, ...).
const std::vector<std::string>& RouteTargetAttributes();
//! The destination attributes under `names`.
std::vector<std::string> RouteDestinationAttributes(RouteNames names);

//! The routes of a <routeTableSet> item that Terraform manages: not the "local" route of
//! the VPC's own range, not routes propagated from a virtual private gateway.
std::vector<pugi::xml_node> ManagedRoutes(pugi::xml_node table);

//! A <routeSet> item's destination (CIDR, IPv6 CIDR or prefix list id).
std::string RouteDestination(pugi::xml_node route);
//! A route value's destination under `names`; "" when none is set.
std::string RouteDestination(const Value& route, RouteNames names);

//! A route value's target as "<attribute> <id>" ("gateway_id igw-1"); "" when none is set.
std::string RouteTarget(const Value& route);

//! A <routeSet> item as a route object under `names`: every attribute present, "" when
//! AWS gives none.
Value RouteValue(pugi::xml_node route, RouteNames names);
//! A route object with every attribute present and nulls as "" (the form RouteValue reads).
Value CanonicalRoute(const Value& route, RouteNames names);

//! A CreateRoute / ReplaceRoute call for `route` in table `table_id`.
QueryRequest RouteCall(const std::string& action, const std::string& table_id, const Value& route,
                       RouteNames names);
//! DeleteRoute of the route to `destination` in table `table_id`.
QueryRequest DeleteRouteCall(const std::string& table_id, const std::string& destination);

//! The schema type of aws_route_table's `route`.
const char* InlineRouteSetType();

}  // namespace strata::aws
