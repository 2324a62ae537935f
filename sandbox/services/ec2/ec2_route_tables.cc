// Route tables: Create/Describe/DeleteRouteTable and their associations with subnets, or
// with an internet gateway attached to the table's VPC (an edge association)
// (AssociateRouteTable, DisassociateRouteTable, ReplaceRouteTableAssociation). Routes are
// in ec2_routes.cc.

#include "sandbox/services/ec2/ec2_route_tables.h"

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_routes.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

Json NewTable(const Ec2Call& call, const Json& vpc) {
  Json table = NewObject(call, kRouteTableKind);
  table["vpcId"] = vpc["id"];
  table["routes"] = Json::array({LocalRoute(vpc)});
  table["associations"] = Json::array();
  return table;
}

// What an association links its table to: a subnet, a gateway, or (main) the VPC.
constexpr const char* kLinkFields[] = {"subnetId", "gatewayId"};

//! A new association linking what `link` names (its "subnetId" or "gatewayId").
Json NewAssociation(const Ec2Call& call, const Json& link, bool main) {
  Json association{{"id", call.world().NewId("rtbassoc")}, {"main", main}};
  for (const char* field : kLinkFields) {
    if (link.contains(field)) association[field] = link[field];
  }
  return association;
}

void WriteAssociation(pugi::xml_node item, const Json& table, const Json& association) {
  AddBool(item, "main", association["main"]);
  AddText(item, "routeTableAssociationId", association["id"]);
  AddText(item, "routeTableId", table["id"]);
  for (const char* field : kLinkFields) {
    if (association.contains(field)) AddText(item, field, association[field]);
  }
  AddText(AddChild(item, "associationState"), "state", "associated");
}

void WriteTable(const Ec2Call& call, pugi::xml_node item, const Json& table) {
  AddText(item, "routeTableId", table["id"]);
  AddText(item, "vpcId", table["vpcId"]);
  AddText(item, "ownerId", call.account());
  pugi::xml_node routes = AddChild(item, "routeSet");
  for (const Json& route : table["routes"]) WriteRoute(call, AddItem(routes), table, route);
  pugi::xml_node associations = AddChild(item, "associationSet");
  for (const Json& association : table["associations"]) WriteAssociation(AddItem(associations), table, association);
  AddChild(item, "propagatingVgwSet");
  WriteTagSet(item, table);
}

void CreateRouteTable(Ec2Call& call, pugi::xml_node response) {
  Json vpc = Require(call, kVpcKind, call.Require("VpcId"));
  Json table = NewTable(call, vpc);
  table["tags"] = TagsFromSpecifications(call, "route-table");
  Save(call, kRouteTableKind, table);
  WriteTable(call, AddChild(response, "routeTable"), table);
}

std::optional<std::vector<std::string>> TableFields(const Ec2Call& call, const Json& table, const std::string& name) {
  using V = std::vector<std::string>;
  if (name == "route-table-id") return V{table["id"]};
  if (name == "vpc-id") return V{table["vpcId"]};
  if (name == "owner-id") return V{call.account()};
  if (name.rfind("route.", 0) == 0) return RouteFields(call, table, name);
  if (name.rfind("association.", 0) != 0) return std::nullopt;
  // A table without associations has no value for these, so matches neither true nor false.
  V out;
  for (const Json& a : table["associations"]) {
    if (name == "association.main") out.push_back(BoolValue(a["main"]));
    if (name == "association.route-table-association-id") out.push_back(a["id"]);
    if (name == "association.route-table-id") out.push_back(table["id"]);
    if (name == "association.subnet-id" && a.contains("subnetId")) out.push_back(a["subnetId"]);
    if (name == "association.gateway-id" && a.contains("gatewayId")) out.push_back(a["gatewayId"]);
  }
  if (name == "association.main" || name == "association.route-table-association-id" ||
      name == "association.route-table-id" || name == "association.subnet-id" || name == "association.gateway-id") {
    return out;
  }
  return std::nullopt;
}

void DescribeRouteTables(Ec2Call& call, pugi::xml_node response) {
  auto fields = [&](const Json& table, const std::string& name) { return TableFields(call, table, name); };
  pugi::xml_node set = AddChild(response, "routeTableSet");
  std::vector<Json> tables = ListIn(call, kRouteTableKind);
  for (const Json& table : SelectObjects(call, kRouteTableKind, tables, "RouteTableId", fields)) {
    WriteTable(call, AddItem(set), table);
  }
}

void DeleteRouteTable(Ec2Call& call, pugi::xml_node response) {
  Json table = Require(call, kRouteTableKind, call.Require("RouteTableId"));
  if (!table["associations"].empty()) throw HasDependencies("routeTable", table["id"]);
  Remove(call, kRouteTableKind, table["id"]);
  AddReturnTrue(response);
}

//! The table holding association `id`, and the association's index in it.
std::pair<Json, size_t> FindAssociation(const Ec2Call& call, const std::string& id) {
  for (Json& table : ListIn(call, kRouteTableKind)) {
    for (size_t i = 0; i < table["associations"].size(); ++i) {
      if (table["associations"][i]["id"] == id) return {std::move(table), i};
    }
  }
  throw ApiError(400, "InvalidAssociationID.NotFound", "The association ID '" + id + "' does not exist");
}

void WriteAssociationState(pugi::xml_node response) {
  AddText(AddChild(response, "associationState"), "state", "associated");
}

//! What AssociateRouteTable links `table` to: {"subnetId": ...} for a subnet of its VPC,
//! {"gatewayId": ...} for an internet gateway attached to its VPC.
Json LinkToAssociate(const Ec2Call& call, const Json& table) {
  std::string table_id = table["id"];
  if (call.Has("SubnetId") == call.Has("GatewayId")) {
    if (!call.Has("SubnetId")) throw MissingParameter("SubnetId");
    throw ApiError(400, "InvalidParameterCombination", "Only one of SubnetId and GatewayId may be specified");
  }
  if (call.Has("SubnetId")) {
    Json subnet = Require(call, kSubnetKind, call.Require("SubnetId"));
    if (subnet["vpcId"] != table["vpcId"]) {
      throw InvalidParameterValue("Route table " + table_id + " and subnet " + subnet["id"].get<std::string>() +
                                  " belong to different networks");
    }
    return {{"subnetId", subnet["id"]}};
  }
  Json gateway = Require(call, kInternetGatewayKind, call.Require("GatewayId"));
  if (gateway.value("vpcId", "") != table["vpcId"]) {
    throw InvalidParameterValue("Gateway " + gateway["id"].get<std::string>() + " is not attached to " +
                                table["vpcId"].get<std::string>() + ", the network of route table " + table_id);
  }
  return {{"gatewayId", gateway["id"]}};
}

void AssociateRouteTable(Ec2Call& call, pugi::xml_node response) {
  Json table = Require(call, kRouteTableKind, call.Require("RouteTableId"));
  Json link = LinkToAssociate(call, table);
  std::string table_id = table["id"];
  for (const Json& other : ListIn(call, kRouteTableKind)) {
    for (const Json& association : other["associations"]) {
      bool same = false;
      for (const char* field : kLinkFields) same = same || (link.contains(field) && association.value(field, "") == link[field]);
      if (!same) continue;
      throw ApiError(400, "Resource.AlreadyAssociated",
                     "the specified association for route table " + table_id +
                         " conflicts with an existing association");
    }
  }
  Json association = NewAssociation(call, link, false);
  table["associations"].push_back(association);
  Save(call, kRouteTableKind, table);
  AddText(response, "associationId", association["id"]);
  WriteAssociationState(response);
}

void DisassociateRouteTable(Ec2Call& call, pugi::xml_node response) {
  std::string id = call.Require("AssociationId");
  auto [table, index] = FindAssociation(call, id);
  if (table["associations"][index]["main"].get<bool>()) {
    throw InvalidParameterValue("cannot disassociate the main route table association " + id);
  }
  table["associations"].erase(index);
  Save(call, kRouteTableKind, table);
  AddReturnTrue(response);
}

// Moves an association (a subnet's, or the VPC's main one) to another table of the VPC.
void ReplaceRouteTableAssociation(Ec2Call& call, pugi::xml_node response) {
  std::string id = call.Require("AssociationId");
  Json target = Require(call, kRouteTableKind, call.Require("RouteTableId"));
  auto [table, index] = FindAssociation(call, id);
  if (table["vpcId"] != target["vpcId"]) {
    throw InvalidParameterValue("Route table " + target["id"].get<std::string>() + " and association " + id +
                                " belong to different networks");
  }
  Json moved = NewAssociation(call, table["associations"][index], table["associations"][index]["main"]);
  table["associations"].erase(index);
  Save(call, kRouteTableKind, table);
  target = Require(call, kRouteTableKind, target["id"]);  // the same table, maybe just changed
  target["associations"].push_back(moved);
  Save(call, kRouteTableKind, target);
  AddText(response, "newAssociationId", moved["id"]);
  WriteAssociationState(response);
}

}  // namespace

void CreateMainRouteTable(const Ec2Call& call, const Json& vpc) {
  Json table = NewTable(call, vpc);
  table["associations"].push_back(NewAssociation(call, Json::object(), true));
  Save(call, kRouteTableKind, table);
}

bool IsMainRouteTable(const Json& table) {
  for (const Json& association : table["associations"]) {
    if (association["main"].get<bool>()) return true;
  }
  return false;
}

void DropSubnetAssociations(const Ec2Call& call, const std::string& subnet_id) {
  for (Json& table : ListIn(call, kRouteTableKind)) {
    Json& associations = table["associations"];
    size_t before = associations.size();
    for (size_t i = associations.size(); i-- > 0;) {
      if (associations[i].value("subnetId", "") == subnet_id) associations.erase(i);
    }
    if (associations.size() != before) Save(call, kRouteTableKind, table);
  }
}

void AddRouteTableActions(Ec2Actions& actions) {
  actions["CreateRouteTable"] = CreateRouteTable;
  actions["DescribeRouteTables"] = DescribeRouteTables;
  actions["DeleteRouteTable"] = DeleteRouteTable;
  actions["AssociateRouteTable"] = AssociateRouteTable;
  actions["DisassociateRouteTable"] = DisassociateRouteTable;
  actions["ReplaceRouteTableAssociation"] = ReplaceRouteTableAssociation;
  AddRouteActions(actions);
}

}  // namespace strata::sandbox
