// The aws provider's VPC networking types (aws_internet_gateway, aws_eip, aws_nat_gateway,
// aws_route_table, aws_route, aws_route_table_association, aws_security_group,
// aws_security_group_rule) against the sandbox and moto, through the provider interface only: create, read
// back unchanged, update in place, drift made by another writer, import by id, delete,
// read gone. Assertions are what AWS does; where moto departs from AWS, a comment says so
// and the provider is never told. Departures relied on or tolerated here:
//  - NAT gateways are "available" at once (AWS: "pending" for a minute or two) and
//    "deleted" at once;
//  - moto ignores CreateNatGateway's ClientToken (AWS returns the first gateway again;
//    moto makes another or refuses it, the EIP being taken): see IgnoresClientToken();
//  - moto accepts route targets without checking they can route for the VPC.

#include <algorithm>

#include "backend_provider_test.h"
#include "providers/aws/services/ec2/ec2_hash.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

//! A rule object of aws_security_group's ingress/egress, every attribute written.
Value Rule(const std::string& protocol, int from, int to, std::vector<std::string> cidrs,
           const std::string& description = "", bool self = false, std::vector<std::string> groups = {}) {
  ValueList group_values;
  for (auto& g : groups) group_values.push_back(S(g));
  return Obj({{"protocol", S(protocol)},
              {"from_port", N(from)},
              {"to_port", N(to)},
              {"cidr_blocks", L(std::move(cidrs))},
              {"ipv6_cidr_blocks", L({})},
              {"prefix_list_ids", L({})},
              {"security_groups", Value::Set(group_values)},
              {"self", Value::Bool(self)},
              {"description", S(description)}});
}

//! An inline route of aws_route_table, every attribute written.
Value InlineRoute(const std::string& cidr, const std::string& target_attr, const std::string& target) {
  ValueMap m;
  for (const char* name : {"cidr_block", "ipv6_cidr_block", "destination_prefix_list_id", "carrier_gateway_id",
                           "core_network_arn", "egress_only_gateway_id", "gateway_id", "local_gateway_id",
                           "nat_gateway_id", "network_interface_id", "transit_gateway_id", "vpc_endpoint_id",
                           "vpc_peering_connection_id"}) {
    m[name] = S("");
  }
  m["cidr_block"] = S(cidr);
  m[target_attr] = S(target);
  return Obj(std::move(m));
}

class AwsEc2NetworkTest : public BackendProviderTest {
 protected:
  AwsEc2NetworkTest() : BackendProviderTest("EC2 networking", {"ec2", "sts"}, "us-east-1") {}

  //! moto does not honour EC2 client tokens; an emulator that does (AWS, our sandbox)
  //! must return the same NAT gateway for the same token.
  bool IgnoresClientToken() const { return IsMoto(); }

  //! Deletes, expects a read to say gone, and a second delete to succeed.
  void DeleteAndExpectGone(const std::string& type, const Value& state) {
    MustDelete(type, state);
    ReadResult read = provider_.ReadResource(ctx_, type, state);
    EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
    EXPECT_TRUE(read.gone) << type << " still there: " << FormatValue(read.state);
    MustDelete(type, state);
  }
  void ExpectImports(const std::string& type, const std::string& id, const Value& state) {
    ApplyResult imported = provider_.ImportResource(ctx_, type, id);
    ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
    EXPECT_EQ(imported.state, state) << type << "\nimported: " << FormatValue(imported.state)
                                     << "\nstate:    " << FormatValue(state);
  }

  Value Vpc(const std::string& cidr) { return MustCreate("aws_vpc", Obj({{"cidr_block", S(cidr)}})); }
  Value Subnet(const Value& vpc, const std::string& cidr) {
    return MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc, "id")}, {"cidr_block", S(cidr)},
                                         {"availability_zone", S("us-east-1a")}}));
  }
};

TEST_P(AwsEc2NetworkTest, RouteIdIsTerraformsHash) {
  // crc32("10.0.0.0/16") = 179966490 (zlib.crc32).
  EXPECT_EQ(StringHashcode("10.0.0.0/16"), 179966490u);
  EXPECT_EQ(RouteId("rtb-1", "10.0.0.0/16"), "r-rtb-1179966490");
}

TEST_P(AwsEc2NetworkTest, InternetGatewayAttachMoveDriftImportDelete) {
  Value a = Vpc("10.10.0.0/16"), b = Vpc("10.11.0.0/16");
  Value igw = MustCreate("aws_internet_gateway", Obj({{"vpc_id", Attr(a, "id")}, {"tags", Tags({{"Name", "edge"}})}}));
  std::string id = Str(igw, "id");
  EXPECT_TRUE(StartsWith(id, "igw-")) << id;
  EXPECT_EQ(Str(igw, "vpc_id"), Str(a, "id"));
  EXPECT_EQ(Str(igw, "owner_id"), Account());
  EXPECT_EQ(Str(igw, "arn"), std::string("arn:aws:ec2:us-east-1:") + Account() + ":internet-gateway/" + id);
  EXPECT_EQ(Attr(igw, "tags_all"), Tags({{"Name", "edge"}, {"Owner", "strata-tests"}}));
  ExpectReadsBack("aws_internet_gateway", igw);

  Value moved = UpdateInPlace("aws_internet_gateway", igw, Obj({{"vpc_id", Attr(b, "id")}, {"tags", Tags({{"Name", "edge"}})}}));
  EXPECT_EQ(Str(moved, "id"), id);
  EXPECT_EQ(Str(moved, "vpc_id"), Str(b, "id"));
  ExpectReadsBack("aws_internet_gateway", moved);

  // Drift: another writer detaches the gateway and retags it.
  provider_.UpdateResource(ctx_, "aws_internet_gateway", moved,
                           Obj({{"vpc_id", Value()}, {"tags", Tags({{"Name", "changed"}})}}));
  ReadResult drifted = provider_.ReadResource(ctx_, "aws_internet_gateway", moved);
  ASSERT_FALSE(drifted.diags.HasErrors()) << Text(drifted.diags);
  EXPECT_TRUE(Attr(drifted.state, "vpc_id").IsNull());
  EXPECT_EQ(Attr(drifted.state, "tags"), Tags({{"Name", "changed"}}));

  ExpectImports("aws_internet_gateway", id, drifted.state);
  // Reattached, so that delete must detach first.
  Value back = UpdateInPlace("aws_internet_gateway", drifted.state, Obj({{"vpc_id", Attr(b, "id")}}));
  DeleteAndExpectGone("aws_internet_gateway", back);
  MustDelete("aws_vpc", a);
  MustDelete("aws_vpc", b);
}

TEST_P(AwsEc2NetworkTest, EipAllocateTagImportRelease) {
  Value eip = MustCreate("aws_eip", Obj({{"tags", Tags({{"Name", "nat"}})}}));
  std::string id = Str(eip, "id");
  EXPECT_TRUE(StartsWith(id, "eipalloc-")) << id;
  EXPECT_EQ(Str(eip, "allocation_id"), id);
  EXPECT_EQ(Str(eip, "domain"), "vpc");
  std::string ip = Str(eip, "public_ip");
  ASSERT_FALSE(ip.empty());
  std::string dashed = ip;
  std::replace(dashed.begin(), dashed.end(), '.', '-');
  EXPECT_EQ(Str(eip, "public_dns"), "ec2-" + dashed + ".compute-1.amazonaws.com");
  EXPECT_EQ(Str(eip, "arn"), std::string("arn:aws:ec2:us-east-1:") + Account() + ":elastic-ip/" + id);
  EXPECT_EQ(Str(eip, "association_id"), "");
  ExpectReadsBack("aws_eip", eip);

  Value retagged = UpdateInPlace("aws_eip", eip, Obj({{"tags", Tags({{"Name", "nat-a"}})}}));
  EXPECT_EQ(Attr(retagged, "tags_all"), Tags({{"Name", "nat-a"}, {"Owner", "strata-tests"}}));
  ExpectReadsBack("aws_eip", retagged);
  ExpectImports("aws_eip", id, retagged);

  PlanResult replace = PlanUpdate("aws_eip", retagged, Obj({{"domain", S("standard")}}));
  EXPECT_EQ(replace.requires_replace.size(), 1u);
  DeleteAndExpectGone("aws_eip", retagged);
}

TEST_P(AwsEc2NetworkTest, NatGatewayWithClientTokenAndEipDrift) {
  Value vpc = Vpc("10.20.0.0/16");
  Value subnet = Subnet(vpc, "10.20.1.0/24");
  Value igw = MustCreate("aws_internet_gateway", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value eip = MustCreate("aws_eip", Obj({}));

  ctx_.idempotency_token = "0123456789abcdef0123456789abcdef";
  Value config = Obj({{"subnet_id", Attr(subnet, "id")}, {"allocation_id", Attr(eip, "id")},
                      {"tags", Tags({{"Name", "nat-a"}})}});
  Value nat = MustCreate("aws_nat_gateway", config);
  std::string id = Str(nat, "id");
  EXPECT_TRUE(StartsWith(id, "nat-")) << id;
  EXPECT_EQ(Str(nat, "connectivity_type"), "public");
  EXPECT_EQ(Str(nat, "allocation_id"), Str(eip, "id"));
  EXPECT_EQ(Str(nat, "public_ip"), Str(eip, "public_ip"));
  EXPECT_TRUE(StartsWith(Str(nat, "network_interface_id"), "eni-")) << Str(nat, "network_interface_id");
  EXPECT_FALSE(Str(nat, "private_ip").empty());
  ExpectReadsBack("aws_nat_gateway", nat);

  // The same create again (a retry after a crash): same token, same gateway.
  ApplyResult again = Create("aws_nat_gateway", config);
  if (IgnoresClientToken()) {
    // moto treats the retry as a new gateway: it makes a second one or (moto 5.2) refuses
    // it with Resource.AlreadyAssociated, the EIP being the first gateway's.
    if (!again.diags.HasErrors() && Str(again.state, "id") != id) MustDelete("aws_nat_gateway", again.state);
  } else {
    ASSERT_FALSE(again.diags.HasErrors()) << Text(again.diags);
    if (Str(again.state, "id") != id) {
      MustDelete("aws_nat_gateway", again.state);
      ADD_FAILURE() << "a second NAT gateway for the same ClientToken";
    }
  }
  ctx_.idempotency_token.clear();

  Value retagged = UpdateInPlace("aws_nat_gateway", nat, Obj({{"subnet_id", Attr(subnet, "id")},
                                                               {"allocation_id", Attr(eip, "id")},
                                                               {"tags", Tags({{"Name", "nat-b"}})}}));
  EXPECT_EQ(Str(retagged, "id"), id);
  ExpectReadsBack("aws_nat_gateway", retagged);
  ExpectImports("aws_nat_gateway", id, retagged);
  PlanResult move = PlanUpdate("aws_nat_gateway", retagged, Obj({{"subnet_id", S("subnet-other")}}));
  EXPECT_EQ(move.requires_replace.size(), 1u);

  // Drift seen from the EIP: the gateway now holds it.
  ReadResult held = provider_.ReadResource(ctx_, "aws_eip", eip);
  ASSERT_FALSE(held.diags.HasErrors()) << Text(held.diags);
  EXPECT_NE(held.state, eip);
  EXPECT_EQ(Str(held.state, "network_interface"), Str(nat, "network_interface_id"));

  DeleteAndExpectGone("aws_nat_gateway", retagged);
  MustDelete("aws_eip", held.state);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, RouteTableInlineRoutesAndDrift) {
  Value vpc = Vpc("10.30.0.0/16");
  Value subnet = Subnet(vpc, "10.30.1.0/24");
  Value igw = MustCreate("aws_internet_gateway", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value eip = MustCreate("aws_eip", Obj({}));
  Value nat = MustCreate("aws_nat_gateway", Obj({{"subnet_id", Attr(subnet, "id")}, {"allocation_id", Attr(eip, "id")}}));
  std::string igw_id = Str(igw, "id"), nat_id = Str(nat, "id");

  Value rtb = MustCreate("aws_route_table",
                         Obj({{"vpc_id", Attr(vpc, "id")},
                              {"route", Value::Set({Obj({{"cidr_block", S("0.0.0.0/0")}, {"gateway_id", S(igw_id)}})})},
                              {"tags", Tags({{"Name", "public"}})}}));
  std::string id = Str(rtb, "id");
  EXPECT_TRUE(StartsWith(id, "rtb-")) << id;
  EXPECT_EQ(Str(rtb, "owner_id"), Account());
  EXPECT_EQ(Str(rtb, "arn"), std::string("arn:aws:ec2:us-east-1:") + Account() + ":route-table/" + id);
  // The VPC's local route is not part of `route`.
  EXPECT_EQ(Attr(rtb, "route"), Value::Set({InlineRoute("0.0.0.0/0", "gateway_id", igw_id)}));
  ExpectReadsBack("aws_route_table", rtb);

  // Replace one target, add a route.
  Value routes = Value::Set({InlineRoute("0.0.0.0/0", "nat_gateway_id", nat_id),
                             InlineRoute("192.168.0.0/16", "gateway_id", igw_id)});
  Value updated = UpdateInPlace("aws_route_table", rtb, Obj({{"vpc_id", Attr(vpc, "id")}, {"route", routes},
                                                             {"tags", Tags({{"Name", "public"}})}}));
  EXPECT_EQ(Attr(updated, "route"), routes);
  ExpectReadsBack("aws_route_table", updated);
  ExpectImports("aws_route_table", id, updated);

  // Drift: another resource (aws_route) adds a route to the table.
  Value extra = MustCreate("aws_route", Obj({{"route_table_id", S(id)}, {"destination_cidr_block", S("172.16.0.0/12")},
                                             {"gateway_id", S(igw_id)}}));
  ReadResult drifted = provider_.ReadResource(ctx_, "aws_route_table", updated);
  ASSERT_FALSE(drifted.diags.HasErrors()) << Text(drifted.diags);
  EXPECT_EQ(Attr(drifted.state, "route").AsList().size(), 3u);

  // Written as [], the table is emptied (local route aside).
  Value emptied = UpdateInPlace("aws_route_table", drifted.state,
                                Obj({{"vpc_id", Attr(vpc, "id")}, {"route", Value::Set({})}, {"tags", Tags({{"Name", "public"}})}}));
  EXPECT_EQ(Attr(emptied, "route"), Value::Set({}));
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_route", extra).gone);

  DeleteAndExpectGone("aws_route_table", emptied);
  MustDelete("aws_nat_gateway", nat);
  MustDelete("aws_eip", eip);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, RouteCreateReplaceTargetImportDelete) {
  Value vpc = Vpc("10.40.0.0/16");
  Value subnet = Subnet(vpc, "10.40.1.0/24");
  Value igw = MustCreate("aws_internet_gateway", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value eip = MustCreate("aws_eip", Obj({}));
  Value nat = MustCreate("aws_nat_gateway", Obj({{"subnet_id", Attr(subnet, "id")}, {"allocation_id", Attr(eip, "id")}}));
  Value rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  EXPECT_EQ(Attr(rtb, "route"), Value::Set({}));
  std::string table = Str(rtb, "id");

  Value config = Obj({{"route_table_id", S(table)}, {"destination_cidr_block", S("0.0.0.0/0")}, {"gateway_id", Attr(igw, "id")}});
  Value route = MustCreate("aws_route", config);
  EXPECT_EQ(Str(route, "id"), RouteId(table, "0.0.0.0/0"));
  EXPECT_EQ(Str(route, "gateway_id"), Str(igw, "id"));
  EXPECT_TRUE(Attr(route, "nat_gateway_id").IsNull());
  EXPECT_EQ(Str(route, "origin"), "CreateRoute");
  EXPECT_EQ(Str(route, "state"), "active");
  ExpectReadsBack("aws_route", route);

  Value to_nat = UpdateInPlace("aws_route", route, Obj({{"route_table_id", S(table)}, {"destination_cidr_block", S("0.0.0.0/0")},
                                                        {"gateway_id", Value()}, {"nat_gateway_id", Attr(nat, "id")}}));
  EXPECT_EQ(Str(to_nat, "id"), Str(route, "id"));
  EXPECT_EQ(Str(to_nat, "nat_gateway_id"), Str(nat, "id"));
  EXPECT_TRUE(Attr(to_nat, "gateway_id").IsNull());
  ExpectReadsBack("aws_route", to_nat);
  ExpectImports("aws_route", table + "_0.0.0.0/0", to_nat);
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_route", table + "_10.99.0.0/16").diags.HasErrors());
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_route", "nonsense").diags.HasErrors());

  // A whole config (Validate wants exactly one target): only the destination moves.
  PlanResult move = PlanUpdate("aws_route", to_nat, Obj({{"route_table_id", S(table)}, {"destination_cidr_block", S("10.1.0.0/16")},
                                                         {"nat_gateway_id", Attr(nat, "id")}}));
  EXPECT_FALSE(move.diags.HasErrors()) << Text(move.diags);
  EXPECT_EQ(move.requires_replace.size(), 1u);
  PlanResult two_targets = provider_.PlanResourceChange(
      ctx_, "aws_route", Value(), With(config, "nat_gateway_id", Attr(nat, "id")), With(config, "nat_gateway_id", Attr(nat, "id")));
  EXPECT_TRUE(two_targets.diags.HasErrors());

  // Drift: the route's target changed by another writer (through the table's inline routes).
  ReadResult table_now = provider_.ReadResource(ctx_, "aws_route_table", rtb);
  ASSERT_FALSE(table_now.diags.HasErrors()) << Text(table_now.diags);
  provider_.UpdateResource(ctx_, "aws_route_table", table_now.state,
                           With(table_now.state, "route", Value::Set({InlineRoute("0.0.0.0/0", "gateway_id", Str(igw, "id"))})));
  ReadResult drifted = provider_.ReadResource(ctx_, "aws_route", to_nat);
  ASSERT_FALSE(drifted.diags.HasErrors()) << Text(drifted.diags);
  EXPECT_EQ(Str(drifted.state, "gateway_id"), Str(igw, "id"));
  EXPECT_TRUE(Attr(drifted.state, "nat_gateway_id").IsNull());

  DeleteAndExpectGone("aws_route", drifted.state);
  MustDelete("aws_route_table", rtb);
  MustDelete("aws_nat_gateway", nat);
  MustDelete("aws_eip", eip);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, RouteTableAssociationMoveImportDelete) {
  Value vpc = Vpc("10.50.0.0/16");
  Value subnet = Subnet(vpc, "10.50.1.0/24");
  Value first = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value second = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));

  Value assoc = MustCreate("aws_route_table_association", Obj({{"subnet_id", Attr(subnet, "id")}, {"route_table_id", Attr(first, "id")}}));
  std::string id = Str(assoc, "id");
  EXPECT_TRUE(StartsWith(id, "rtbassoc-")) << id;
  EXPECT_EQ(Str(assoc, "route_table_id"), Str(first, "id"));
  EXPECT_EQ(Str(assoc, "subnet_id"), Str(subnet, "id"));
  EXPECT_TRUE(Attr(assoc, "gateway_id").IsNull());
  ExpectReadsBack("aws_route_table_association", assoc);

  // ReplaceRouteTableAssociation: in place, with a new association id.
  Value moved = UpdateInPlace("aws_route_table_association", assoc,
                              Obj({{"subnet_id", Attr(subnet, "id")}, {"route_table_id", Attr(second, "id")}}));
  EXPECT_EQ(Str(moved, "route_table_id"), Str(second, "id"));
  EXPECT_TRUE(StartsWith(Str(moved, "id"), "rtbassoc-"));
  ExpectReadsBack("aws_route_table_association", moved);
  ExpectImports("aws_route_table_association", Str(subnet, "id") + "/" + Str(second, "id"), moved);
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_route_table_association", Str(subnet, "id") + "/" + Str(first, "id"))
                  .diags.HasErrors());

  PlanResult resubnet = PlanUpdate("aws_route_table_association", moved, Obj({{"subnet_id", S("subnet-other")}}));
  EXPECT_EQ(resubnet.requires_replace.size(), 1u);

  DeleteAndExpectGone("aws_route_table_association", moved);
  MustDelete("aws_route_table", first);
  MustDelete("aws_route_table", second);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, RouteTableDeleteLetsGoOfItsSubnets) {
  Value vpc = Vpc("10.51.0.0/16");
  Value subnet = Subnet(vpc, "10.51.1.0/24");
  Value rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value assoc = MustCreate("aws_route_table_association", Obj({{"subnet_id", Attr(subnet, "id")}, {"route_table_id", Attr(rtb, "id")}}));
  DeleteAndExpectGone("aws_route_table", rtb);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_route_table_association", assoc).gone);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, SecurityGroupRulesUpdateDriftImportDelete) {
  Value vpc = Vpc("10.60.0.0/16");
  Value ingress = Value::Set({Rule("tcp", 443, 443, {"10.60.0.0/16"}, "https"),
                              Rule("6", 80, 80, {"0.0.0.0/0"})});  // "6" is read back as "tcp"
  Value sg = MustCreate("aws_security_group", Obj({{"name", S("web")}, {"vpc_id", Attr(vpc, "id")}, {"ingress", ingress},
                                                   {"tags", Tags({{"Name", "web"}})}}));
  std::string id = Str(sg, "id");
  EXPECT_TRUE(StartsWith(id, "sg-")) << id;
  EXPECT_EQ(Str(sg, "name"), "web");
  EXPECT_EQ(Str(sg, "description"), "Managed by Strata");
  EXPECT_EQ(Str(sg, "arn"), std::string("arn:aws:ec2:us-east-1:") + Account() + ":security-group/" + id);
  EXPECT_EQ(Attr(sg, "ingress"), Value::Set({Rule("tcp", 443, 443, {"10.60.0.0/16"}, "https"),
                                             Rule("tcp", 80, 80, {"0.0.0.0/0"})}));
  // As with Terraform, AWS's default allow-all egress is revoked on create.
  EXPECT_EQ(Attr(sg, "egress"), Value::Set({}));
  ExpectReadsBack("aws_security_group", sg);

  Value new_ingress = Value::Set({Rule("tcp", 443, 443, {"10.60.0.0/16", "10.61.0.0/16"}, "https"),
                                  Rule("tcp", 22, 22, {}, "", true)});
  Value egress = Value::Set({Rule("all", 0, 0, {"0.0.0.0/0"})});
  Value updated = UpdateInPlace("aws_security_group", sg,
                                Obj({{"name", S("web")}, {"vpc_id", Attr(vpc, "id")}, {"ingress", new_ingress},
                                     {"egress", egress}, {"tags", Tags({{"Name", "web"}})}}));
  EXPECT_EQ(Attr(updated, "ingress"), new_ingress);
  EXPECT_EQ(Attr(updated, "egress"), Value::Set({Rule("-1", 0, 0, {"0.0.0.0/0"})}));
  ExpectReadsBack("aws_security_group", updated);
  ExpectImports("aws_security_group", id, updated);

  PlanResult rename = PlanUpdate("aws_security_group", updated, Obj({{"name", S("web2")}}));
  EXPECT_EQ(rename.requires_replace.size(), 1u);

  // Drift: another resource adds a rule.
  Value rule = MustCreate("aws_security_group_rule",
                          Obj({{"type", S("ingress")}, {"security_group_id", S(id)}, {"protocol", S("udp")},
                               {"from_port", N(53)}, {"to_port", N(53)}, {"cidr_blocks", L({"10.0.0.0/8"})}}));
  ReadResult drifted = provider_.ReadResource(ctx_, "aws_security_group", updated);
  ASSERT_FALSE(drifted.diags.HasErrors()) << Text(drifted.diags);
  EXPECT_EQ(Attr(drifted.state, "ingress").AsList().size(), 3u);

  // A second group referencing this one; revoke_rules_on_delete clears it on delete.
  Value other = MustCreate("aws_security_group",
                           Obj({{"name", S("db")}, {"vpc_id", Attr(vpc, "id")}, {"revoke_rules_on_delete", Value::Bool(true)},
                                {"ingress", Value::Set({Rule("tcp", 5432, 5432, {}, "", false, {id})})}}));
  EXPECT_EQ(Attr(other, "ingress"), Value::Set({Rule("tcp", 5432, 5432, {}, "", false, {id})}));
  DeleteAndExpectGone("aws_security_group", other);

  DeleteAndExpectGone("aws_security_group", drifted.state);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, SecurityGroupNamePrefix) {
  Value vpc = Vpc("10.61.0.0/16");
  Value sg = MustCreate("aws_security_group", Obj({{"name_prefix", S("app-")}, {"vpc_id", Attr(vpc, "id")}}));
  EXPECT_TRUE(StartsWith(Str(sg, "name"), "app-")) << Str(sg, "name");
  EXPECT_EQ(Str(sg, "name").size(), 4u + 26u);
  EXPECT_EQ(Str(sg, "name_prefix"), "app-");
  ExpectReadsBack("aws_security_group", sg);
  DeleteAndExpectGone("aws_security_group", sg);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, SecurityGroupRuleCreateDescribeImportDriftDelete) {
  Value vpc = Vpc("10.70.0.0/16");
  Value sg = MustCreate("aws_security_group", Obj({{"name", S("rules")}, {"vpc_id", Attr(vpc, "id")}}));
  Value source = MustCreate("aws_security_group", Obj({{"name", S("clients")}, {"vpc_id", Attr(vpc, "id")}}));
  std::string group = Str(sg, "id");

  Value config = Obj({{"type", S("ingress")}, {"security_group_id", S(group)}, {"protocol", S("tcp")},
                      {"from_port", N(8080)}, {"to_port", N(8080)}, {"cidr_blocks", L({"10.1.0.0/16"})},
                      {"description", S("app")}});
  Value rule = MustCreate("aws_security_group_rule", config);
  EXPECT_TRUE(StartsWith(Str(rule, "id"), "sgrule-")) << Str(rule, "id");
  EXPECT_FALSE(Attr(rule, "self").AsBool());
  ExpectReadsBack("aws_security_group_rule", rule);

  Value described = UpdateInPlace("aws_security_group_rule", rule, With(config, "description", S("app v2")));
  EXPECT_EQ(Str(described, "id"), Str(rule, "id"));
  EXPECT_EQ(Str(described, "description"), "app v2");
  ExpectReadsBack("aws_security_group_rule", described);
  ExpectImports("aws_security_group_rule", group + "_ingress_tcp_8080_8080_10.1.0.0/16", described);
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_security_group_rule", group + "_ingress_tcp_9999_9999_10.1.0.0/16")
                  .diags.HasErrors());

  PlanResult widen = PlanUpdate("aws_security_group_rule", described, With(config, "to_port", N(8090)));
  EXPECT_FALSE(widen.requires_replace.empty());

  // "all" is "-1"; a group source and self.
  Value all = MustCreate("aws_security_group_rule",
                         Obj({{"type", S("egress")}, {"security_group_id", S(group)}, {"protocol", S("all")},
                              {"from_port", N(0)}, {"to_port", N(0)}, {"source_security_group_id", Attr(source, "id")}}));
  EXPECT_EQ(Str(all, "protocol"), "-1");
  ExpectReadsBack("aws_security_group_rule", all);
  Value self = MustCreate("aws_security_group_rule",
                          Obj({{"type", S("ingress")}, {"security_group_id", S(group)}, {"protocol", S("tcp")},
                               {"from_port", N(0)}, {"to_port", N(65535)}, {"self", Value::Bool(true)}}));
  ExpectReadsBack("aws_security_group_rule", self);
  ExpectImports("aws_security_group_rule", group + "_ingress_tcp_0_65535_self", self);
  EXPECT_NE(Str(self, "id"), Str(all, "id"));

  // Drift: the group's inline rules rewritten by another writer drop the 8080 rule.
  ReadResult group_now = provider_.ReadResource(ctx_, "aws_security_group", sg);
  ASSERT_FALSE(group_now.diags.HasErrors());
  provider_.UpdateResource(ctx_, "aws_security_group", group_now.state,
                           With(group_now.state, "ingress", Value::Set({Rule("tcp", 0, 65535, {}, "", true)})));
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_security_group_rule", described).gone);
  MustDelete("aws_security_group_rule", described);  // already gone: fine

  DeleteAndExpectGone("aws_security_group_rule", all);
  DeleteAndExpectGone("aws_security_group_rule", self);
  MustDelete("aws_security_group", sg);
  MustDelete("aws_security_group", source);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2NetworkTest, SchemasFollowTerraform) {
  ProviderSchema schema = provider_.Schema();
  for (const char* type : {"aws_internet_gateway", "aws_eip", "aws_nat_gateway", "aws_route_table", "aws_route",
                           "aws_route_table_association", "aws_security_group", "aws_security_group_rule"}) {
    EXPECT_NE(schema.Find(ResourceMode::Managed, type), nullptr) << type;
  }
  const ResourceSchema* nat = schema.Find(ResourceMode::Managed, "aws_nat_gateway");
  ASSERT_NE(nat, nullptr);
  EXPECT_TRUE(nat->attributes.at("subnet_id").force_new);
  EXPECT_TRUE(nat->attributes.at("public_ip").computed);
  const ResourceSchema* assoc = schema.Find(ResourceMode::Managed, "aws_route_table_association");
  ASSERT_NE(assoc, nullptr);
  EXPECT_FALSE(assoc->attributes.at("route_table_id").force_new);
  const ResourceSchema* sg = schema.Find(ResourceMode::Managed, "aws_security_group");
  ASSERT_NE(sg, nullptr);
  EXPECT_TRUE(sg->attributes.at("ingress").optional && sg->attributes.at("ingress").computed);
}

// A rule's source known only after apply (a group from an earlier stage not applied yet, a
// condition on one) is neither a conflict nor missing at plan; known ones are still checked.
TEST_P(AwsEc2NetworkTest, SecurityGroupRuleSourcesAreCheckedWhenKnown) {
  Value base = Obj({{"type", S("ingress")}, {"security_group_id", S("sg-0rules")}, {"protocol", S("tcp")},
                    {"from_port", N(988)}, {"to_port", N(988)}});
  auto validate = [&](Value config) {
    return provider_.ValidateResourceConfig(ctx_, ResourceMode::Managed, "aws_security_group_rule", config);
  };
  Value unknown_both = With(With(base, "self", Value::Unknown()), "source_security_group_id", Value::Unknown());
  EXPECT_FALSE(validate(unknown_both).HasErrors()) << Text(validate(unknown_both));
  Diagnostics both = validate(With(With(base, "self", Value::Bool(true)), "source_security_group_id", S("sg-0clients")));
  EXPECT_NE(Text(both).find("exclude each other"), std::string::npos) << Text(both);
  EXPECT_NE(Text(validate(base)).find("Missing security group rule source"), std::string::npos);
}

STRATA_AWS_BACKENDS(AwsEc2NetworkTest);

}  // namespace
}  // namespace strata::aws
