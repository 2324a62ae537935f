// Recovery of an interrupted create of the aws provider's EC2 types, against the sandbox
// and moto: the engine re-sends a create after a crash with the same token and
// resume_interrupted_create, and the object the first run made must be found, not made a
// second time (recovery_test_support.h). Per type:
//  - CreateTag types (aws_vpc, aws_subnet, aws_internet_gateway, aws_eip, aws_route_table,
//    aws_security_group): the same id comes back and one object of that Name exists; a
//    fresh token creates; state never shows the strata:create-token tag, and a tag update
//    leaves it on the object; an object caught before Create's later steps is brought to
//    the plan;
//  - NaturalKey types (aws_route, aws_route_table_association, aws_security_group_rule): the
//    same, and a key held by another writer's object (another target, route table,
//    description) is an error naming `strata import`, with that object left as it was;
//  - aws_nat_gateway (ClientToken): the re-sent create is answered with the same gateway.
// Where moto departs from AWS, the case says so:
//  - moto ignores CreateNatGateway's ClientToken: the same-gateway case is skipped there;
//  - moto fails (500) on DescribeRouteTables' association.gateway-id filter: the edge
//    association's case is skipped there.

#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

//! An EC2 object kind as the raw Describe call lists it.
struct Listing {
  const char* type;      //!< "aws_vpc"
  const char* describe;  //!< "DescribeVpcs"
  const char* set;       //!< "vpcSet"
};

class AwsEc2RecoveryTest : public RecoveryTest {
 protected:
  AwsEc2RecoveryTest() : RecoveryTest("EC2 create recovery", {"ec2", "sts"}, "us-east-1") {}

  Value Vpc(const std::string& cidr) { return MustCreate("aws_vpc", Obj({{"cidr_block", S(cidr)}})); }
  Value Subnet(const Value& vpc, const std::string& cidr) {
    return MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc, "id")}, {"cidr_block", S(cidr)},
                                         {"availability_zone", S("us-east-1a")}}));
  }
  Value AttachedGateway(const Value& vpc) { return MustCreate("aws_internet_gateway", Obj({{"vpc_id", Attr(vpc, "id")}})); }

  //! The CreateTag cases of one type. `config` and `fresh` carry distinct Name tags. An
  //! interrupted create of `config` resumed under its token gives the first run's object
  //! and no second one; state lacks the token tag, which a tag update leaves on the
  //! object. `fresh` resumed under a token no run made anything with is created, tagged
  //! with it. Returns both states, for cleanup.
  std::pair<Value, Value> ExpectCreateTagRecovery(const Listing& kind, const Value& config, const Value& fresh) {
    std::string name = Str(Attr(config, "tags"), "Name");
    Value planned = PlanCreate(kind.type, config).planned;
    std::string token = NewToken();
    ApplyResult first = Interrupted(kind.type, planned, token);
    ExpectDestroyFinds(kind.type, planned, token, "id", Str(first.state, "id"));
    Value resumed = MustResume(kind.type, planned, token);
    EXPECT_EQ(Str(resumed, "id"), Str(first.state, "id")) << kind.type << ": the interrupted create was not found";
    EXPECT_EQ(CountTagged(kind.describe, kind.set, "Name", name), 1) << kind.type << ": doubled";
    ExpectNoTokenTag(resumed);
    ExpectReadsBack(kind.type, resumed);

    ValueMap more = Attr(config, "tags").AsMap();
    more["Extra"] = S("1");
    Value retagged = UpdateInPlace(kind.type, resumed, With(config, "tags", Value::Map(more)));
    EXPECT_EQ(Attr(retagged, "tags_all"), Tags({{"Name", name}, {"Extra", "1"}, {"Owner", "strata-tests"}}));
    ExpectNoTokenTag(retagged);
    EXPECT_EQ(CountTagged(kind.describe, kind.set, kCreateTokenTag, token), 1)
        << kind.type << ": a tag update removed the create-token tag";

    std::string fresh_token = NewToken();
    ExpectDestroyFindsNothing(kind.type, PlanCreate(kind.type, fresh).planned, fresh_token);
    Value made = MustResume(kind.type, PlanCreate(kind.type, fresh).planned, fresh_token);
    EXPECT_NE(Str(made, "id"), Str(resumed, "id")) << kind.type << ": nothing was made, yet something was adopted";
    EXPECT_EQ(CountTagged(kind.describe, kind.set, "Name", Str(Attr(fresh, "tags"), "Name")), 1) << kind.type;
    EXPECT_EQ(CountTagged(kind.describe, kind.set, kCreateTokenTag, fresh_token), 1)
        << kind.type << ": created without its create-token tag";
    ExpectNoTokenTag(made);
    return {retagged, made};
  }

  //! The id at `id_element` of a raw create's answer, which must have succeeded.
  std::string RawCreate(const std::string& params, const std::string& id_element) {
    std::string answer = RawEc2(params);
    std::string id = XmlValue(answer, id_element);
    EXPECT_FALSE(id.empty()) << answer;
    return id;
  }
};

const Listing kVpcs{"aws_vpc", "DescribeVpcs", "vpcSet"};
const Listing kSubnets{"aws_subnet", "DescribeSubnets", "subnetSet"};
const Listing kGateways{"aws_internet_gateway", "DescribeInternetGateways", "internetGatewaySet"};
const Listing kAddresses{"aws_eip", "DescribeAddresses", "addressesSet"};
const Listing kRouteTables{"aws_route_table", "DescribeRouteTables", "routeTableSet"};
const Listing kGroups{"aws_security_group", "DescribeSecurityGroups", "securityGroupInfo"};

TEST_P(AwsEc2RecoveryTest, VpcInterruptedCreateIsFoundNotDoubled) {
  auto [a, b] = ExpectCreateTagRecovery(kVpcs, Obj({{"cidr_block", S("10.100.0.0/16")}, {"tags", Tags({{"Name", "rec-vpc-a"}})}}),
                                        Obj({{"cidr_block", S("10.100.0.0/16")}, {"tags", Tags({{"Name", "rec-vpc-b"}})}}));
  MustDelete("aws_vpc", a);
  MustDelete("aws_vpc", b);
}

TEST_P(AwsEc2RecoveryTest, VpcCaughtBeforeItsAttributesIsBroughtToThePlan) {
  // The first run died between CreateVpc and ModifyVpcAttribute.
  std::string token = NewToken();
  std::string id = RawCreate("Action=CreateVpc" + Param("CidrBlock", "10.102.0.0/16") + TokenSpecification("vpc", token),
                             "vpcId");
  Value config = Obj({{"cidr_block", S("10.102.0.0/16")}, {"enable_dns_hostnames", Value::Bool(true)},
                      {"tags", Tags({{"Name", "rec-vpc-partial"}})}});
  Value vpc = MustResume("aws_vpc", PlanCreate("aws_vpc", config).planned, token);
  EXPECT_EQ(Str(vpc, "id"), id);
  EXPECT_TRUE(Attr(vpc, "enable_dns_hostnames").AsBool());
  EXPECT_EQ(Attr(vpc, "tags_all"), Tags({{"Name", "rec-vpc-partial"}, {"Owner", "strata-tests"}}));
  ExpectNoTokenTag(vpc);
  ExpectReadsBack("aws_vpc", vpc);
  EXPECT_EQ(CountTagged("DescribeVpcs", "vpcSet", kCreateTokenTag, token), 1);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, SubnetInterruptedCreateIsFoundNotDoubled) {
  Value vpc = Vpc("10.101.0.0/16");
  auto subnet = [&](const std::string& cidr, const std::string& name) {
    return Obj({{"vpc_id", Attr(vpc, "id")}, {"cidr_block", S(cidr)}, {"availability_zone", S("us-east-1a")},
                {"tags", Tags({{"Name", name}})}});
  };
  // (Without recovery the re-sent create of the same range fails with InvalidSubnet.Conflict.)
  auto [a, b] = ExpectCreateTagRecovery(kSubnets, subnet("10.101.1.0/24", "rec-subnet-a"), subnet("10.101.2.0/24", "rec-subnet-b"));
  MustDelete("aws_subnet", a);
  MustDelete("aws_subnet", b);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, InternetGatewayInterruptedCreateIsFoundNotDoubled) {
  auto [a, b] = ExpectCreateTagRecovery(kGateways, Obj({{"tags", Tags({{"Name", "rec-igw-a"}})}}),
                                        Obj({{"tags", Tags({{"Name", "rec-igw-b"}})}}));
  MustDelete("aws_internet_gateway", a);
  MustDelete("aws_internet_gateway", b);
}

TEST_P(AwsEc2RecoveryTest, InternetGatewayCaughtBeforeItsAttachmentIsAttached) {
  Value vpc = Vpc("10.103.0.0/16");
  std::string token = NewToken();
  std::string id = RawCreate("Action=CreateInternetGateway" + TokenSpecification("internet-gateway", token),
                             "internetGatewayId");
  Value config = Obj({{"vpc_id", Attr(vpc, "id")}, {"tags", Tags({{"Name", "rec-igw-partial"}})}});
  Value igw = MustResume("aws_internet_gateway", PlanCreate("aws_internet_gateway", config).planned, token);
  EXPECT_EQ(Str(igw, "id"), id);
  EXPECT_EQ(Str(igw, "vpc_id"), Str(vpc, "id"));
  ExpectNoTokenTag(igw);
  ExpectReadsBack("aws_internet_gateway", igw);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, EipInterruptedCreateIsFoundNotDoubled) {
  auto [a, b] = ExpectCreateTagRecovery(kAddresses, Obj({{"tags", Tags({{"Name", "rec-eip-a"}})}}),
                                        Obj({{"tags", Tags({{"Name", "rec-eip-b"}})}}));
  MustDelete("aws_eip", a);
  MustDelete("aws_eip", b);
}

TEST_P(AwsEc2RecoveryTest, RouteTableInterruptedCreateIsFoundNotDoubled) {
  Value vpc = Vpc("10.104.0.0/16");
  auto table = [&](const std::string& name) { return Obj({{"vpc_id", Attr(vpc, "id")}, {"tags", Tags({{"Name", name}})}}); };
  auto [a, b] = ExpectCreateTagRecovery(kRouteTables, table("rec-rtb-a"), table("rec-rtb-b"));
  MustDelete("aws_route_table", a);
  MustDelete("aws_route_table", b);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, SecurityGroupInterruptedCreateIsFoundNotDoubled) {
  Value vpc = Vpc("10.105.0.0/16");
  auto group = [&](const std::string& name) {
    return Obj({{"name_prefix", S("rec-")}, {"vpc_id", Attr(vpc, "id")}, {"tags", Tags({{"Name", name}})}});
  };
  auto [a, b] = ExpectCreateTagRecovery(kGroups, group("rec-sg-a"), group("rec-sg-b"));
  EXPECT_EQ(Attr(a, "egress"), Value::Set({}));
  MustDelete("aws_security_group", a);
  MustDelete("aws_security_group", b);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, SecurityGroupCaughtBeforeItsDefaultEgressWasRevokedLosesIt) {
  // The first run died right after CreateSecurityGroup: AWS's allow-all egress is still there.
  Value vpc = Vpc("10.106.0.0/16");
  auto raw_group = [&](const std::string& name, const std::string& token) {
    return RawCreate("Action=CreateSecurityGroup" + Param("GroupName", name) + Param("GroupDescription", "Managed by Strata") +
                         Param("VpcId", Str(vpc, "id")) + TokenSpecification("security-group", token),
                     "groupId");
  };
  Value https = Obj({{"protocol", S("tcp")}, {"from_port", N(443)}, {"to_port", N(443)}, {"cidr_blocks", L({"10.0.0.0/8"})},
                     {"ipv6_cidr_blocks", L({})}, {"prefix_list_ids", L({})}, {"security_groups", Value::Set({})},
                     {"self", Value::Bool(false)}, {"description", S("")}});
  Value allow_all = With(With(With(With(https, "protocol", S("-1")), "from_port", N(0)), "to_port", N(0)), "cidr_blocks",
                         L({"0.0.0.0/0"}));

  // Egress left out of the config: revoked, as Create does.
  std::string token = NewToken();
  std::string id = raw_group("rec-sg-partial", token);
  Value config = Obj({{"name", S("rec-sg-partial")}, {"vpc_id", Attr(vpc, "id")}, {"ingress", Value::Set({https})}});
  Value sg = MustResume("aws_security_group", PlanCreate("aws_security_group", config).planned, token);
  EXPECT_EQ(Str(sg, "id"), id);
  EXPECT_EQ(Attr(sg, "egress"), Value::Set({}));
  EXPECT_EQ(Attr(sg, "ingress"), Value::Set({https}));
  ExpectNoTokenTag(sg);
  ExpectReadsBack("aws_security_group", sg);

  // Egress written as allow-all: kept.
  std::string token2 = NewToken();
  std::string id2 = raw_group("rec-sg-partial-2", token2);
  Value config2 = Obj({{"name", S("rec-sg-partial-2")}, {"vpc_id", Attr(vpc, "id")}, {"egress", Value::Set({allow_all})}});
  Value sg2 = MustResume("aws_security_group", PlanCreate("aws_security_group", config2).planned, token2);
  EXPECT_EQ(Str(sg2, "id"), id2);
  EXPECT_EQ(Attr(sg2, "egress"), Value::Set({allow_all}));

  MustDelete("aws_security_group", sg);
  MustDelete("aws_security_group", sg2);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, NatGatewayResentWithItsClientTokenIsTheSameGateway) {
  Value vpc = Vpc("10.107.0.0/16");
  Value subnet = Subnet(vpc, "10.107.1.0/24");
  Value igw = AttachedGateway(vpc);
  Value eip_a = MustCreate("aws_eip", Obj({})), eip_b = MustCreate("aws_eip", Obj({}));
  auto available_in_subnet = [&] {
    return CountItems(RawEc2("Action=DescribeNatGateways" + Param("Filter.1.Name", "subnet-id") +
                             Param("Filter.1.Value.1", Str(subnet, "id")) + Param("Filter.2.Name", "state") +
                             Param("Filter.2.Value.1", "available")),
                      "natGatewaySet");
  };

  // Nothing was made under a fresh token: a gateway is created.
  Value b = MustResume("aws_nat_gateway",
                       PlanCreate("aws_nat_gateway", Obj({{"subnet_id", Attr(subnet, "id")}, {"allocation_id", Attr(eip_b, "id")}})).planned,
                       NewToken());
  EXPECT_EQ(available_in_subnet(), 1);

  Value planned = PlanCreate("aws_nat_gateway", Obj({{"subnet_id", Attr(subnet, "id")}, {"allocation_id", Attr(eip_a, "id")}})).planned;
  std::string token = NewToken();
  ApplyResult first = Interrupted("aws_nat_gateway", planned, token);
  Value a = first.state;
  if (IsMoto()) {
    std::cerr << "\n**********************************************************************\n"
              << "*** SKIPPING the re-sent NAT gateway create on moto: moto ignores CreateNatGateway's\n"
              << "*** ClientToken (AWS and the sandbox answer it with the gateway it made).\n"
              << "**********************************************************************\n";
  } else {
    // A destroy cannot resend the token: it finds the gateway by the token tag.
    ExpectDestroyFinds("aws_nat_gateway", planned, token, "id", Str(first.state, "id"));
    a = MustResume("aws_nat_gateway", planned, token);
    EXPECT_EQ(Str(a, "id"), Str(first.state, "id"));
    EXPECT_EQ(available_in_subnet(), 2) << "the re-sent create made a second gateway";
    ExpectNoTokenTag(a);
  }
  MustDelete("aws_nat_gateway", a);
  MustDelete("aws_nat_gateway", b);
  MustDelete("aws_eip", eip_a);
  MustDelete("aws_eip", eip_b);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
  if (IsMoto()) GTEST_SKIP() << "moto ignores CreateNatGateway's ClientToken";
}

TEST_P(AwsEc2RecoveryTest, RouteInterruptedCreateIsFoundNotDoubled) {
  Value vpc = Vpc("10.108.0.0/16");
  Value igw = AttachedGateway(vpc);
  Value rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  auto routes_to = [&](const std::string& destination) {
    return Occurrences(RawEc2("Action=DescribeRouteTables" + Param("RouteTableId.1", Str(rtb, "id"))),
                       "<destinationCidrBlock>" + destination + "</destinationCidrBlock>");
  };
  auto route = [&](const std::string& destination) {
    return PlanCreate("aws_route", Obj({{"route_table_id", Attr(rtb, "id")}, {"destination_cidr_block", S(destination)},
                                        {"gateway_id", Attr(igw, "id")}}))
        .planned;
  };
  // (Without recovery the re-sent create fails with RouteAlreadyExists.)
  std::string token = NewToken();
  ApplyResult first = Interrupted("aws_route", route("0.0.0.0/0"), token);
  Value a = MustResume("aws_route", route("0.0.0.0/0"), token);
  EXPECT_EQ(Str(a, "id"), Str(first.state, "id"));
  EXPECT_EQ(Str(a, "gateway_id"), Str(igw, "id"));
  EXPECT_EQ(routes_to("0.0.0.0/0"), 1);
  ExpectReadsBack("aws_route", a);

  Value b = MustResume("aws_route", route("10.99.0.0/16"), NewToken());
  EXPECT_EQ(routes_to("10.99.0.0/16"), 1);
  ExpectReadsBack("aws_route", b);

  MustDelete("aws_route", a);
  MustDelete("aws_route", b);
  MustDelete("aws_route_table", rtb);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, RouteToAnotherTargetIsNotAdopted) {
  Value vpc = Vpc("10.109.0.0/16");
  Value subnet = Subnet(vpc, "10.109.1.0/24");
  Value igw = AttachedGateway(vpc);
  Value eip = MustCreate("aws_eip", Obj({}));
  Value nat = MustCreate("aws_nat_gateway", Obj({{"subnet_id", Attr(subnet, "id")}, {"allocation_id", Attr(eip, "id")}}));
  Value rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  // Another writer's route to the destination.
  Value theirs = MustCreate("aws_route", Obj({{"route_table_id", Attr(rtb, "id")}, {"destination_cidr_block", S("192.168.0.0/16")},
                                              {"gateway_id", Attr(igw, "id")}}));
  Value ours = PlanCreate("aws_route", Obj({{"route_table_id", Attr(rtb, "id")}, {"destination_cidr_block", S("192.168.0.0/16")},
                                            {"nat_gateway_id", Attr(nat, "id")}}))
                   .planned;
  ExpectNotOursError(Resume("aws_route", ours, NewToken()));
  ExpectDestroyFindsNothing("aws_route", ours, NewToken());  // a destroy leaves it alone
  ExpectReadsBack("aws_route", theirs);

  MustDelete("aws_route", theirs);
  MustDelete("aws_route_table", rtb);
  MustDelete("aws_nat_gateway", nat);
  MustDelete("aws_eip", eip);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, RouteTableAssociationInterruptedCreateIsFoundNotDoubledAndAnotherTablesIsNotAdopted) {
  Value vpc = Vpc("10.110.0.0/16");
  Value s1 = Subnet(vpc, "10.110.1.0/24"), s2 = Subnet(vpc, "10.110.2.0/24"), s3 = Subnet(vpc, "10.110.3.0/24");
  Value rt1 = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value rt2 = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  auto association = [&](const Value& subnet, const Value& table) {
    return PlanCreate("aws_route_table_association", Obj({{"subnet_id", Attr(subnet, "id")}, {"route_table_id", Attr(table, "id")}}))
        .planned;
  };
  auto associations_of = [&](const Value& subnet) {
    std::string id = Str(subnet, "id");
    return Occurrences(RawEc2("Action=DescribeRouteTables" + Param("Filter.1.Name", "association.subnet-id") +
                              Param("Filter.1.Value.1", id)),
                       "<subnetId>" + id + "</subnetId>");
  };

  // (Without recovery the re-sent create fails with Resource.AlreadyAssociated.)
  std::string token = NewToken();
  ApplyResult first = Interrupted("aws_route_table_association", association(s1, rt1), token);
  Value a = MustResume("aws_route_table_association", association(s1, rt1), token);
  EXPECT_EQ(Str(a, "id"), Str(first.state, "id"));
  EXPECT_EQ(associations_of(s1), 1);
  ExpectReadsBack("aws_route_table_association", a);

  Value b = MustResume("aws_route_table_association", association(s2, rt1), NewToken());
  EXPECT_EQ(Str(b, "route_table_id"), Str(rt1, "id"));
  EXPECT_EQ(associations_of(s2), 1);

  // s3 is another writer's, linked to rt1: a recovery planning it on rt2 does not take it.
  Value theirs = MustCreate("aws_route_table_association", Obj({{"subnet_id", Attr(s3, "id")}, {"route_table_id", Attr(rt1, "id")}}));
  ExpectNotOursError(Resume("aws_route_table_association", association(s3, rt2), NewToken()));
  ExpectReadsBack("aws_route_table_association", theirs);

  for (const Value& done : {a, b, theirs}) MustDelete("aws_route_table_association", done);
  MustDelete("aws_route_table", rt1);
  MustDelete("aws_route_table", rt2);
  for (const Value& subnet : {s1, s2, s3}) MustDelete("aws_subnet", subnet);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2RecoveryTest, GatewayRouteTableAssociationIsFoundByItsGateway) {
  Value vpc = Vpc("10.112.0.0/16");
  Value igw = AttachedGateway(vpc);
  Value rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  std::string probe = RawEc2("Action=DescribeRouteTables" + Param("Filter.1.Name", "association.gateway-id") +
                             Param("Filter.1.Value.1", Str(igw, "id")));
  bool filters_edges = CountItems(probe, "routeTableSet") >= 0;
  if (!filters_edges) {
    std::cerr << "\n**********************************************************************\n"
              << "*** SKIPPING the edge association's recovery on this endpoint (moto): DescribeRouteTables\n"
              << "*** fails on the association.gateway-id filter (moto: 500).\n"
              << "**********************************************************************\n";
  } else {
    Value planned = PlanCreate("aws_route_table_association",
                               Obj({{"gateway_id", Attr(igw, "id")}, {"route_table_id", Attr(rtb, "id")}}))
                        .planned;
    std::string token = NewToken();
    ApplyResult first = Interrupted("aws_route_table_association", planned, token);
    Value a = MustResume("aws_route_table_association", planned, token);
    EXPECT_EQ(Str(a, "id"), Str(first.state, "id"));
    EXPECT_EQ(Str(a, "gateway_id"), Str(igw, "id"));
    ExpectReadsBack("aws_route_table_association", a);
    MustDelete("aws_route_table_association", a);
  }
  MustDelete("aws_route_table", rtb);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_vpc", vpc);
  if (!filters_edges) GTEST_SKIP() << "association.gateway-id filter not implemented by the endpoint";
}

TEST_P(AwsEc2RecoveryTest, SecurityGroupRuleInterruptedCreateIsFoundNotDoubledAndAnotherDescriptionIsNotAdopted) {
  Value vpc = Vpc("10.111.0.0/16");
  Value sg = MustCreate("aws_security_group", Obj({{"name", S("rec-rules")}, {"vpc_id", Attr(vpc, "id")}}));
  auto rule = [&](int port, const std::string& cidr, const std::string& description) {
    return Obj({{"type", S("ingress")}, {"security_group_id", Attr(sg, "id")}, {"protocol", S("tcp")},
                {"from_port", N(port)}, {"to_port", N(port)}, {"cidr_blocks", L({cidr})}, {"description", S(description)}});
  };
  auto sources = [&](const std::string& cidr) {
    return Occurrences(RawEc2("Action=DescribeSecurityGroups" + Param("GroupId.1", Str(sg, "id"))), "<cidrIp>" + cidr + "</cidrIp>");
  };

  // (Without recovery the re-sent create fails with InvalidPermission.Duplicate.)
  Value planned = PlanCreate("aws_security_group_rule", rule(8080, "10.1.0.0/16", "app")).planned;
  std::string token = NewToken();
  ApplyResult first = Interrupted("aws_security_group_rule", planned, token);
  Value a = MustResume("aws_security_group_rule", planned, token);
  EXPECT_EQ(Str(a, "id"), Str(first.state, "id"));
  EXPECT_EQ(sources("10.1.0.0/16"), 1);
  ExpectReadsBack("aws_security_group_rule", a);

  Value b = MustResume("aws_security_group_rule", PlanCreate("aws_security_group_rule", rule(9090, "10.2.0.0/16", "app")).planned,
                       NewToken());
  EXPECT_EQ(sources("10.2.0.0/16"), 1);
  ExpectReadsBack("aws_security_group_rule", b);

  Value theirs = MustCreate("aws_security_group_rule", rule(7070, "10.3.0.0/16", "theirs"));
  ExpectNotOursError(Resume("aws_security_group_rule",
                            PlanCreate("aws_security_group_rule", rule(7070, "10.3.0.0/16", "ours")).planned, NewToken()));
  ExpectReadsBack("aws_security_group_rule", theirs);

  for (const Value& done : {a, b, theirs}) MustDelete("aws_security_group_rule", done);
  MustDelete("aws_security_group", sg);
  MustDelete("aws_vpc", vpc);
}

STRATA_AWS_BACKENDS(AwsEc2RecoveryTest);

}  // namespace
}  // namespace strata::aws
