// The EC2 types' batch reads (Provider::ReadResources: one Describe* filtered on up to 200
// ids; associations, routes and rules through the route tables and groups that hold them)
// against the sandbox and moto: each object reads as its single read says, an id the
// answer leaves out is gone as InvalidXID.NotFound says, and more than 200 ids take more
// than one call. On the sandbox, which counts what it answers, the calls are counted.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;

class AwsEc2BatchReadTest : public BackendProviderTest {
 protected:
  AwsEc2BatchReadTest() : BackendProviderTest("EC2 batch reads", {"ec2", "sts"}, "us-east-1") {}

  //! Calls the sandbox answered so far (0 on moto, which does not count).
  uint64_t Calls() const { return IsMoto() ? 0 : sandbox_->stats().calls; }

  //! Reads `states` together and expects what the single read says of each: the same
  //! state, or gone.
  void ExpectBatchMatchesSingle(const std::string& type, const std::vector<Value>& states) {
    ASSERT_TRUE(provider_.ReadsInBatches(type)) << type;
    std::vector<ReadResult> batch = provider_.ReadResources(ctx_, type, states);
    ASSERT_EQ(batch.size(), states.size());
    for (size_t i = 0; i < states.size(); ++i) {
      ReadResult single = provider_.ReadResource(ctx_, type, states[i]);
      EXPECT_FALSE(batch[i].diags.HasErrors()) << type << ": " << Text(batch[i].diags);
      EXPECT_EQ(batch[i].gone, single.gone) << type << " " << Str(states[i], "id");
      EXPECT_EQ(batch[i].state, single.state) << type << "\nbatch:  " << FormatValue(batch[i].state)
                                              << "\nsingle: " << FormatValue(single.state);
    }
  }
};

TEST_P(AwsEc2BatchReadTest, SubnetsInOneCallAndMissingIdsGone) {
  Value vpc = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.40.0.0/16")}}));
  std::vector<Value> subnets;
  for (int i = 0; i < 4; ++i) {
    subnets.push_back(MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc, "id")},
                                                    {"cidr_block", S("10.40." + std::to_string(i) + ".0/24")},
                                                    {"tags", Tags({{"Name", "s" + std::to_string(i)}})}})));
  }
  Value deleted = subnets.back();
  MustDelete("aws_subnet", deleted);

  uint64_t before = Calls();
  std::vector<ReadResult> read = provider_.ReadResources(ctx_, "aws_subnet", subnets);
  if (!IsMoto()) {
    EXPECT_EQ(Calls() - before, 1u) << "four subnets, one DescribeSubnets";
  }
  ASSERT_EQ(read.size(), 4u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_FALSE(read[i].diags.HasErrors()) << Text(read[i].diags);
    EXPECT_FALSE(read[i].gone);
    EXPECT_EQ(read[i].state, subnets[i]) << FormatValue(read[i].state);
  }
  EXPECT_TRUE(read[3].gone) << "deleted outside: gone, as InvalidSubnetID.NotFound says to the single read";
  EXPECT_FALSE(read[3].diags.HasErrors()) << Text(read[3].diags);
  ExpectBatchMatchesSingle("aws_subnet", subnets);

  // 250 ids: two calls of at most 200 filter values; the made-up ones are gone.
  std::vector<Value> many = {subnets[0]};
  for (int i = 0; i < 249; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "subnet-%017x", 0xabc000 + i);
    many.push_back(attrs::With(subnets[1], "id", S(id)));
  }
  before = Calls();
  read = provider_.ReadResources(ctx_, "aws_subnet", many);
  if (!IsMoto()) {
    EXPECT_EQ(Calls() - before, 2u) << "250 ids, 200 to a call";
  }
  ASSERT_EQ(read.size(), 250u);
  EXPECT_EQ(read[0].state, subnets[0]);
  for (size_t i = 1; i < read.size(); ++i) {
    EXPECT_TRUE(read[i].gone) << i;
    EXPECT_FALSE(read[i].diags.HasErrors()) << Text(read[i].diags);
  }
  for (size_t i = 0; i < 3; ++i) MustDelete("aws_subnet", subnets[i]);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2BatchReadTest, NetworkTypesReadTogetherAsAlone) {
  Value vpc = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.41.0.0/16")}}));
  Value other = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.42.0.0/16")}, {"tags", Tags({{"Name", "b"}})}}));
  Value igw = MustCreate("aws_internet_gateway", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  Value rtb2 = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(other, "id")}}));
  Value sg = MustCreate("aws_security_group", Obj({{"name", S("batch-" + UniqueSuffix())}, {"vpc_id", Attr(vpc, "id")}}));
  Value eip = MustCreate("aws_eip", Obj({{"tags", Tags({{"Name", "batch"}})}}));
  Value gone_rtb = MustCreate("aws_route_table", Obj({{"vpc_id", Attr(vpc, "id")}}));
  MustDelete("aws_route_table", gone_rtb);

  ExpectBatchMatchesSingle("aws_vpc", {vpc, other});
  ExpectBatchMatchesSingle("aws_internet_gateway", {igw});
  ExpectBatchMatchesSingle("aws_route_table", {rtb, gone_rtb, rtb2});
  ExpectBatchMatchesSingle("aws_security_group", {sg});
  ExpectBatchMatchesSingle("aws_eip", {eip});

  Value subnet = MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc, "id")}, {"cidr_block", S("10.41.1.0/24")}}));
  Value subnet2 = MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc, "id")}, {"cidr_block", S("10.41.2.0/24")}}));
  Value assoc = MustCreate("aws_route_table_association",
                           Obj({{"subnet_id", Attr(subnet, "id")}, {"route_table_id", Attr(rtb, "id")}}));
  Value gone_assoc = MustCreate("aws_route_table_association",
                                Obj({{"subnet_id", Attr(subnet2, "id")}, {"route_table_id", Attr(rtb, "id")}}));
  MustDelete("aws_route_table_association", gone_assoc);
  uint64_t before = Calls();
  std::vector<ReadResult> read = provider_.ReadResources(ctx_, "aws_route_table_association", {assoc, gone_assoc});
  if (!IsMoto()) {
    EXPECT_EQ(Calls() - before, 1u) << "two associations, one DescribeRouteTables";
  }
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].state, assoc) << FormatValue(read[0].state);
  EXPECT_TRUE(read[1].gone);
  ExpectBatchMatchesSingle("aws_route_table_association", {assoc, gone_assoc});
  MustDelete("aws_route_table_association", assoc);
  MustDelete("aws_subnet", subnet);
  MustDelete("aws_subnet", subnet2);

  // Routes and rules are read through the table and the group that hold them.
  auto route = [&](const Value& table, const std::string& cidr) {
    return MustCreate("aws_route", Obj({{"route_table_id", Attr(table, "id")}, {"destination_cidr_block", S(cidr)},
                                        {"gateway_id", Attr(igw, "id")}}));
  };
  Value r1 = route(rtb, "0.0.0.0/0"), r2 = route(rtb, "172.16.0.0/12"), r3 = route(rtb, "192.168.0.0/16");
  MustDelete("aws_route", r3);
  ExpectBatchMatchesSingle("aws_route", {r1, r2, r3, attrs::With(r1, "route_table_id", Attr(gone_rtb, "id"))});
  auto rule = [&](const std::string& type, int port) {
    return MustCreate("aws_security_group_rule",
                      Obj({{"type", S(type)}, {"security_group_id", Attr(sg, "id")}, {"protocol", S("tcp")},
                           {"from_port", N(port)}, {"to_port", N(port)}, {"cidr_blocks", L({"10.0.0.0/8"})}}));
  };
  Value in = rule("ingress", 443), out = rule("egress", 5432), revoked = rule("ingress", 22);
  MustDelete("aws_security_group_rule", revoked);
  before = Calls();
  read = provider_.ReadResources(ctx_, "aws_security_group_rule", {in, out, revoked});
  if (!IsMoto()) {
    EXPECT_EQ(Calls() - before, 1u) << "three rules of one group, one DescribeSecurityGroups";
  }
  ExpectBatchMatchesSingle("aws_security_group_rule", {in, out, revoked});
  MustDelete("aws_security_group_rule", in);
  MustDelete("aws_security_group_rule", out);
  MustDelete("aws_route", r1);
  MustDelete("aws_route", r2);

  MustDelete("aws_eip", eip);
  MustDelete("aws_security_group", sg);
  MustDelete("aws_route_table", rtb);
  MustDelete("aws_route_table", rtb2);
  MustDelete("aws_internet_gateway", igw);
  MustDelete("aws_vpc", vpc);
  MustDelete("aws_vpc", other);
}

STRATA_AWS_BACKENDS(AwsEc2BatchReadTest);

}  // namespace
}  // namespace strata::aws
