#include <gtest/gtest.h>

#include "providers/aws/client/endpoint_resolver.h"

namespace strata::aws {
namespace {

TEST(EndpointResolverTest, RegionalDefault) {
  EndpointResolver r("us-west-2");
  auto eks = r.Resolve("eks");
  ASSERT_TRUE(eks.ok());
  EXPECT_EQ(eks->url, "https://eks.us-west-2.amazonaws.com");
  EXPECT_EQ(eks->signing_region, "us-west-2");
  EXPECT_EQ(eks->signing_name, "eks");
  EXPECT_EQ(r.Resolve("sts")->url, "https://sts.us-west-2.amazonaws.com");
  EXPECT_EQ(r.Resolve("ec2")->url, "https://ec2.us-west-2.amazonaws.com");
}

TEST(EndpointResolverTest, EndpointPrefixesDifferFromServiceIds) {
  EndpointResolver r("eu-west-1");
  auto elb = r.Resolve("elbv2");
  EXPECT_EQ(elb->url, "https://elasticloadbalancing.eu-west-1.amazonaws.com");
  EXPECT_EQ(elb->signing_name, "elasticloadbalancing");
  EXPECT_EQ(r.Resolve("efs")->url, "https://elasticfilesystem.eu-west-1.amazonaws.com");
  EXPECT_EQ(r.Resolve("cloudwatch")->signing_name, "monitoring");
}

TEST(EndpointResolverTest, GlobalServices) {
  auto iam = EndpointResolver("ap-southeast-2").Resolve("iam");
  EXPECT_EQ(iam->url, "https://iam.amazonaws.com");
  EXPECT_EQ(iam->signing_region, "us-east-1");
  auto cn = EndpointResolver("cn-north-1").Resolve("iam");
  EXPECT_EQ(cn->url, "https://iam.cn-north-1.amazonaws.com.cn");
  EXPECT_EQ(cn->signing_region, "cn-north-1");
  auto gov = EndpointResolver("us-gov-east-1").Resolve("iam");
  EXPECT_EQ(gov->url, "https://iam.us-gov.amazonaws.com");
  EXPECT_EQ(gov->signing_region, "us-gov-west-1");
  EXPECT_EQ(EndpointResolver("eu-central-1").Resolve("route53")->url, "https://route53.amazonaws.com");
}

TEST(EndpointResolverTest, ChinaPartitionSuffix) {
  EXPECT_EQ(EndpointResolver("cn-northwest-1").Resolve("sts")->url,
            "https://sts.cn-northwest-1.amazonaws.com.cn");
}

TEST(EndpointResolverTest, OverridesKeepSigningIdentity) {
  EndpointResolver r("us-west-2", {{"sts", "http://127.0.0.1:4566/"},
                                   {"elasticloadbalancing", "localhost:9000"},
                                   {"iam", "http://127.0.0.1:4566"}});
  auto sts = r.Resolve("sts");
  EXPECT_EQ(sts->url, "http://127.0.0.1:4566");
  EXPECT_EQ(sts->signing_region, "us-west-2");
  EXPECT_EQ(r.Resolve("elbv2")->url, "https://localhost:9000");
  auto iam = r.Resolve("iam");
  EXPECT_EQ(iam->url, "http://127.0.0.1:4566");
  EXPECT_EQ(iam->signing_region, "us-east-1");
  EXPECT_EQ(r.Resolve("eks")->url, "https://eks.us-west-2.amazonaws.com");  // not overridden
}

TEST(EndpointResolverTest, MissingOrInvalidRegionIsAConfigurationError) {
  auto none = EndpointResolver("").Resolve("eks");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, "InvalidConfiguration");
  EXPECT_NE(none.error().message.find("region"), std::string::npos);
  EXPECT_FALSE(EndpointResolver("us-west-2.evil.com/").Resolve("eks").ok());
  EXPECT_TRUE(EndpointResolver("").Resolve("iam").ok());  // global: no region needed
}

}  // namespace
}  // namespace strata::aws
