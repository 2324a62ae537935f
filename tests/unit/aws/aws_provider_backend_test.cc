// The aws provider's resources and data sources against the sandbox and moto (moto_server, started by the
// fixture on 127.0.0.1). The provider reaches it only through its `endpoints` setting.
// Where moto departs from AWS, the test says so in a comment; the provider is never told.
// Known departures relied on or tolerated here:
//  - every request id is the literal "request-id" (AWS: a UUID), so tests only check that
//    diagnostics carry one;
//  - new subnets are "available" at once (AWS: briefly "pending");
//  - the account is always 123456789012, whatever the keys.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;

class AwsProviderTest : public BackendProviderTest {
 protected:
  AwsProviderTest() : BackendProviderTest("provider", {"ec2", "sts"}, "us-east-1") {}

  Value CreateVpc(const std::string& cidr, const Value& tags) {
    ApplyResult vpc = Create("aws_vpc", Value::Object({{"cidr_block", S(cidr)}, {"tags", tags}}));
    EXPECT_FALSE(vpc.diags.HasErrors()) << Text(vpc.diags);
    return vpc.state;
  }

};

TEST_P(AwsProviderTest, VpcCreateReadUpdateDelete) {
  Value vpc = CreateVpc("10.0.0.0/16", Tags({{"Name", "main"}}));
  std::string id = Str(vpc, "id");
  EXPECT_EQ(id.rfind("vpc-", 0), 0u) << id;
  EXPECT_EQ(Str(vpc, "arn"), std::string("arn:aws:ec2:us-east-1:") + Account() + ":vpc/" + id);
  EXPECT_EQ(Str(vpc, "owner_id"), Account());
  EXPECT_EQ(Str(vpc, "default_route_table_id").rfind("rtb-", 0), 0u);
  EXPECT_TRUE(Attr(vpc, "enable_dns_support").AsBool());
  EXPECT_FALSE(Attr(vpc, "enable_dns_hostnames").AsBool());
  EXPECT_EQ(Attr(vpc, "tags"), Tags({{"Name", "main"}}));
  EXPECT_EQ(Attr(vpc, "tags_all"), Tags({{"Name", "main"}, {"Owner", "strata-tests"}}));

  ReadResult read = provider_.ReadResource(ctx_, "aws_vpc", vpc);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(read.state, vpc);

  Value config = Value::Object({{"cidr_block", S("10.0.0.0/16")},
                                {"tags", Tags({{"Name", "renamed"}, {"Tier", "core"}})},
                                {"enable_dns_hostnames", Value::Bool(true)}});
  ApplyResult updated = Update("aws_vpc", vpc, config);
  ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
  EXPECT_EQ(Str(updated.state, "id"), id);
  EXPECT_TRUE(Attr(updated.state, "enable_dns_hostnames").AsBool());
  EXPECT_EQ(Attr(updated.state, "tags_all"),
            Tags({{"Name", "renamed"}, {"Owner", "strata-tests"}, {"Tier", "core"}}));
  read = provider_.ReadResource(ctx_, "aws_vpc", updated.state);
  EXPECT_EQ(read.state, updated.state);

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_vpc", updated.state).diags.HasErrors());
  read = provider_.ReadResource(ctx_, "aws_vpc", updated.state);
  EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_TRUE(read.gone);
  // Deleting what is already gone succeeds.
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_vpc", updated.state).diags.HasErrors());
}

TEST_P(AwsProviderTest, ChangingVpcCidrForcesReplacement) {
  Value prior = Value::Object({{"id", S("vpc-1")}, {"cidr_block", S("10.0.0.0/16")}});
  Value config = Value::Object({{"cidr_block", S("10.1.0.0/16")}});
  PlanResult plan = provider_.PlanResourceChange(ctx_, "aws_vpc", prior, config, config);
  ASSERT_EQ(plan.requires_replace.size(), 1u);
  EXPECT_TRUE(Attr(plan.planned, "id").IsUnknown());
}

TEST_P(AwsProviderTest, SubnetInsideVpcAndOutsideIsRefused) {
  Value vpc = CreateVpc("10.1.0.0/16", Value());
  Value config = Value::Object({{"vpc_id", Attr(vpc, "id")},
                                {"cidr_block", S("10.1.1.0/24")},
                                {"availability_zone", S("us-east-1a")},
                                {"map_public_ip_on_launch", Value::Bool(true)},
                                {"tags", Tags({{"Name", "public-a"}})}});
  ApplyResult subnet = Create("aws_subnet", config);
  ASSERT_FALSE(subnet.diags.HasErrors()) << Text(subnet.diags);
  std::string id = Str(subnet.state, "id");
  EXPECT_EQ(id.rfind("subnet-", 0), 0u) << id;
  EXPECT_EQ(Str(subnet.state, "vpc_id"), Str(vpc, "id"));
  EXPECT_EQ(Str(subnet.state, "availability_zone"), "us-east-1a");
  EXPECT_TRUE(Attr(subnet.state, "map_public_ip_on_launch").AsBool());
  EXPECT_EQ(Str(subnet.state, "arn"), std::string("arn:aws:ec2:us-east-1:") + Account() + ":subnet/" + id);
  EXPECT_EQ(Attr(subnet.state, "tags_all"), Tags({{"Name", "public-a"}, {"Owner", "strata-tests"}}));

  ApplyResult updated = Update("aws_subnet", subnet.state,
                               Value::Object({{"map_public_ip_on_launch", Value::Bool(false)},
                                              {"tags", Value()}}));
  ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
  EXPECT_FALSE(Attr(updated.state, "map_public_ip_on_launch").AsBool());
  EXPECT_EQ(Attr(updated.state, "tags_all"), Tags({{"Owner", "strata-tests"}}));

  ApplyResult outside = Create("aws_subnet", Value::Object({{"vpc_id", Attr(vpc, "id")},
                                                             {"cidr_block", S("10.9.0.0/24")}}));
  ASSERT_TRUE(outside.diags.HasErrors());
  EXPECT_TRUE(outside.state.IsNull());
  std::string text = Text(outside.diags);
  EXPECT_NE(text.find("CreateSubnet"), std::string::npos) << text;
  EXPECT_NE(text.find("InvalidSubnet.Range"), std::string::npos) << text;
  EXPECT_NE(text.find("Request id"), std::string::npos) << text;

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_subnet", updated.state).diags.HasErrors());
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_subnet", updated.state).gone);
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_vpc", vpc).diags.HasErrors());
}

TEST_P(AwsProviderTest, ImportingAVpcGivesTheCreatedState) {
  Value vpc = CreateVpc("10.2.0.0/16", Tags({{"Name", "imported"}}));
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_vpc", Str(vpc, "id"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(imported.state, vpc);

  ApplyResult missing = provider_.ImportResource(ctx_, "aws_vpc", "vpc-0123456789abcdef0");
  EXPECT_TRUE(missing.diags.HasErrors());
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_vpc", vpc).diags.HasErrors());
}

TEST_P(AwsProviderTest, ReadingAnUnknownVpcSaysGone) {
  ReadResult read = provider_.ReadResource(
      ctx_, "aws_vpc", Value::Object({{"id", S("vpc-0123456789abcdef0")}}));
  EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_TRUE(read.gone);
}

TEST_P(AwsProviderTest, DataSources) {
  ReadResult who = provider_.ReadDataSource(ctx_, "aws_caller_identity", Value::Object({}));
  ASSERT_FALSE(who.diags.HasErrors()) << Text(who.diags);
  EXPECT_EQ(Str(who.state, "account_id"), Account());
  EXPECT_NE(Str(who.state, "arn").find(Account()), std::string::npos);
  EXPECT_FALSE(Str(who.state, "user_id").empty());

  ReadResult region = provider_.ReadDataSource(ctx_, "aws_region", Value::Object({}));
  ASSERT_FALSE(region.diags.HasErrors()) << Text(region.diags);
  EXPECT_EQ(Str(region.state, "name"), "us-east-1");

  ReadResult zones = provider_.ReadDataSource(ctx_, "aws_availability_zones",
                                              Value::Object({{"state", S("available")}}));
  ASSERT_FALSE(zones.diags.HasErrors()) << Text(zones.diags);
  const ValueList& names = Attr(zones.state, "names").AsList();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), S("us-east-1a"));
  EXPECT_EQ(Attr(zones.state, "zone_ids").AsList().size(), names.size());
}

// Without moto: settings are checked before anything is sent.
TEST(AwsProviderSettingsTest, RegionIsRequiredAndKeysComeInPairs) {
  AwsProvider provider(std::make_shared<MapEnvironment>());
  OperationContext ctx;
  Diagnostics diags = provider.Configure(ctx, Value());
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_EQ(diags.items().front().summary, "No AWS region");
  diags = provider.Configure(
      ctx, Value::Object({{"region", S("eu-west-1")}, {"access_key", S("AKIDEXAMPLE")}}));
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_EQ(diags.items().front().summary, "Incomplete AWS keys");
  ReadResult read = provider.ReadResource(ctx, "aws_vpc", Value::Object({{"id", S("vpc-1")}}));
  EXPECT_TRUE(read.diags.HasErrors());  // not configured
}

TEST(AwsProviderSettingsTest, SchemaHasTerraformsNames) {
  ProviderSchema schema = AwsProvider(std::make_shared<MapEnvironment>()).Schema();
  const ResourceSchema* vpc = schema.Find(ResourceMode::Managed, "aws_vpc");
  ASSERT_NE(vpc, nullptr);
  EXPECT_TRUE(vpc->attributes.at("cidr_block").force_new);
  const ResourceSchema* subnet = schema.Find(ResourceMode::Managed, "aws_subnet");
  ASSERT_NE(subnet, nullptr);
  EXPECT_TRUE(subnet->attributes.at("availability_zone").force_new);
  EXPECT_TRUE(subnet->attributes.at("availability_zone").computed);
  EXPECT_NE(schema.Find(ResourceMode::Data, "aws_caller_identity"), nullptr);
  EXPECT_NE(schema.Find(ResourceMode::Data, "aws_region"), nullptr);
  EXPECT_NE(schema.Find(ResourceMode::Data, "aws_availability_zones"), nullptr);
  EXPECT_TRUE(schema.provider.attributes.at("secret_key").sensitive);
}

STRATA_AWS_BACKENDS(AwsProviderTest);

}  // namespace
}  // namespace strata::aws
