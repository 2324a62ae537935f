// data "aws_vpc", "aws_subnets" and "aws_security_group" against the sandbox and moto, as a
// stage that joins an existing network finds it: by tags, filters and arguments. No match
// and several matches are Terraform's errors. moto holds a default VPC (with its subnets and
// default security group) in every region, so every lookup here is narrowed by a tag or an
// id of this test's own objects, which makes the cases hold on both backends.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;

Value Filter(const std::string& name, std::vector<std::string> values) {
  ValueList v;
  for (auto& s : values) v.push_back(S(s));
  return Value::List({Value::Object({{"name", S(name)}, {"values", Value::Set(std::move(v))}})});
}

class AwsEc2LookupTest : public BackendProviderTest {
 protected:
  AwsEc2LookupTest() : BackendProviderTest("EC2 lookups", {"ec2"}, "us-west-2") {}

  void SetUp() override {
    BackendProviderTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    static int n = 0;
    net_ = "lookup-" + std::to_string(++n) + "-" + (IsMoto() ? "m" : "s");
    vpc_ = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.42.0.0/16")}, {"tags", Tags({{"Name", net_}, {"net", net_}})}}));
    for (int i = 0; i < 2; ++i) {
      subnets_.push_back(MustCreate("aws_subnet", Obj({{"vpc_id", S(Str(vpc_, "id"))},
                                                       {"cidr_block", S("10.42." + std::to_string(i) + ".0/24")},
                                                       {"availability_zone", S(i == 0 ? "us-west-2a" : "us-west-2b")},
                                                       {"tags", Tags({{"net", net_}, {"tier", i == 0 ? "private" : "public"}})}})));
    }
    group_ = MustCreate("aws_security_group", Obj({{"name", S(net_ + "-nodes")},
                                                   {"description", S("nodes")},
                                                   {"vpc_id", S(Str(vpc_, "id"))},
                                                   {"tags", Tags({{"net", net_}})}}));
  }

  ReadResult Data(const std::string& type, ValueMap config) {
    return provider_.ReadDataSource(ctx_, type, Value::Object(std::move(config)));
  }

  std::string net_;
  Value vpc_, group_;
  std::vector<Value> subnets_;
};

TEST_P(AwsEc2LookupTest, VpcByTagsFilterOrIdHasTheManagedTypesAttributes) {
  ReadResult by_tags = Data("aws_vpc", {{"tags", Tags({{"net", net_}})}});
  ASSERT_FALSE(by_tags.diags.HasErrors()) << Text(by_tags.diags);
  EXPECT_EQ(Str(by_tags.state, "id"), Str(vpc_, "id"));
  EXPECT_EQ(Str(by_tags.state, "cidr_block"), "10.42.0.0/16");
  EXPECT_EQ(Str(by_tags.state, "arn"), Str(vpc_, "arn"));
  EXPECT_EQ(Str(by_tags.state, "main_route_table_id"), Str(vpc_, "main_route_table_id"));
  EXPECT_EQ(Attr(by_tags.state, "default"), Value::Bool(false));
  EXPECT_EQ(Str(by_tags.state, "state"), "available");
  EXPECT_EQ(Attr(by_tags.state, "tags"), Tags({{"Name", net_}, {"net", net_}, {"Owner", "strata-tests"}}));

  ReadResult by_filter = Data("aws_vpc", {{"filter", Filter("tag:Name", {net_})}, {"cidr_block", S("10.42.0.0/16")}});
  ASSERT_FALSE(by_filter.diags.HasErrors()) << Text(by_filter.diags);
  EXPECT_EQ(Str(by_filter.state, "id"), Str(vpc_, "id"));
  ReadResult by_id = Data("aws_vpc", {{"id", S(Str(vpc_, "id"))}});
  ASSERT_FALSE(by_id.diags.HasErrors()) << Text(by_id.diags);
  EXPECT_EQ(Str(by_id.state, "cidr_block"), "10.42.0.0/16");
}

TEST_P(AwsEc2LookupTest, NoMatchAndSeveralMatchesAreTerraformsErrors) {
  ReadResult none = Data("aws_vpc", {{"tags", Tags({{"net", "no-such-" + net_}})}});
  ASSERT_TRUE(none.diags.HasErrors());
  EXPECT_NE(Text(none.diags).find("no matching EC2 VPC found"), std::string::npos) << Text(none.diags);
  MustCreate("aws_vpc", Obj({{"cidr_block", S("10.43.0.0/16")}, {"tags", Tags({{"net", net_}})}}));
  ReadResult two = Data("aws_vpc", {{"tags", Tags({{"net", net_}})}});
  ASSERT_TRUE(two.diags.HasErrors());
  EXPECT_NE(Text(two.diags).find("multiple EC2 VPCs matched (2)"), std::string::npos) << Text(two.diags);
  ReadResult bad = Data("aws_vpc", {{"filter", Filter("no-such-filter", {"x"})}});
  ASSERT_TRUE(bad.diags.HasErrors());
  EXPECT_NE(Text(bad.diags).find("DescribeVpcs"), std::string::npos) << Text(bad.diags);
}

TEST_P(AwsEc2LookupTest, SubnetsByVpcAndTag) {
  ReadResult all = Data("aws_subnets", {{"filter", Filter("vpc-id", {Str(vpc_, "id")})}});
  ASSERT_FALSE(all.diags.HasErrors()) << Text(all.diags);
  std::vector<std::string> ids;
  for (const Value& id : Attr(all.state, "ids").AsList()) ids.push_back(id.AsString());
  std::sort(ids.begin(), ids.end());
  std::vector<std::string> want = {Str(subnets_[0], "id"), Str(subnets_[1], "id")};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(ids, want);
  ReadResult private_only = Data("aws_subnets", {{"tags", Tags({{"net", net_}, {"tier", "private"}})}});
  ASSERT_FALSE(private_only.diags.HasErrors()) << Text(private_only.diags);
  EXPECT_EQ(Attr(private_only.state, "ids"), Value::List({S(Str(subnets_[0], "id"))}));
  ReadResult none = Data("aws_subnets", {{"tags", Tags({{"net", "no-such-" + net_}})}});
  ASSERT_FALSE(none.diags.HasErrors()) << "no subnet is an empty list, not an error";
  EXPECT_TRUE(Attr(none.state, "ids").AsList().empty());
}

TEST_P(AwsEc2LookupTest, SecurityGroupByNameAndVpcIncludingTheDefaultOne) {
  ReadResult nodes = Data("aws_security_group", {{"name", S(net_ + "-nodes")}, {"vpc_id", S(Str(vpc_, "id"))}});
  ASSERT_FALSE(nodes.diags.HasErrors()) << Text(nodes.diags);
  EXPECT_EQ(Str(nodes.state, "id"), Str(group_, "id"));
  EXPECT_EQ(Str(nodes.state, "description"), "nodes");
  EXPECT_EQ(Str(nodes.state, "arn"), Str(group_, "arn"));
  ReadResult by_default = Data("aws_security_group", {{"name", S("default")}, {"vpc_id", S(Str(vpc_, "id"))}});
  ASSERT_FALSE(by_default.diags.HasErrors()) << Text(by_default.diags);
  EXPECT_EQ(Str(by_default.state, "vpc_id"), Str(vpc_, "id"));
  EXPECT_NE(Str(by_default.state, "id"), Str(group_, "id"));
  ReadResult both = Data("aws_security_group", {{"vpc_id", S(Str(vpc_, "id"))}});
  ASSERT_TRUE(both.diags.HasErrors());
  EXPECT_NE(Text(both.diags).find("multiple EC2 Security Groups matched (2)"), std::string::npos) << Text(both.diags);
}

STRATA_AWS_BACKENDS(AwsEc2LookupTest);

}  // namespace
}  // namespace strata::aws
