// The aws provider block's settings: where endpoints come from (the block, then the AWS
// SDKs' AWS_ENDPOINT_URL_<SERVICE> and AWS_ENDPOINT_URL), and the errors a user can make.

#include <gtest/gtest.h>

#include "providers/aws/client/endpoint_resolver.h"
#include "providers/aws/common/aws_settings.h"

namespace strata::aws {
namespace {

Value Block(ValueMap m) { return Value::Object(std::move(m)); }

TEST(AwsSettingsTest, EndpointEnvironmentVariablesBehindTheBlock) {
  MapEnvironment env;
  env.SetEnv("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
  env.SetEnv("AWS_ENDPOINT_URL_EKS", "http://127.0.0.1:5000");
  env.SetEnv("AWS_ENDPOINT_URL_EC2", "http://127.0.0.1:6000");
  AwsSettings settings;
  Value config = Block({{"region", Value::String("us-west-2")},
                        {"endpoints", Value::Map({{"ec2", Value::String("http://127.0.0.1:7000")}})}});
  ASSERT_FALSE(ParseAwsSettings(config, env, settings).HasErrors());
  EndpointResolver resolver(settings.region, settings.endpoints);
  EXPECT_EQ(resolver.Resolve("ec2")->url, "http://127.0.0.1:7000");  // the block wins
  EXPECT_EQ(resolver.Resolve("eks")->url, "http://127.0.0.1:5000");  // then the service's variable
  EXPECT_EQ(resolver.Resolve("iam")->url, "http://127.0.0.1:4566");  // then AWS_ENDPOINT_URL
  EXPECT_EQ(resolver.Resolve("iam")->signing_region, "us-east-1");   // signed as for AWS
  EXPECT_EQ(resolver.Resolve("cognito-idp")->url, "http://127.0.0.1:4566");
}

// The per-service variables are named after the SDKs' service ids, not the endpoint keys:
// AWS_ENDPOINT_URL_ROUTE_53, _CLOUDWATCH_LOGS, _ELASTIC_LOAD_BALANCING_V2, as the AWS CLI reads them.
TEST(AwsSettingsTest, ServiceEndpointVariablesUseTheSdkServiceIds) {
  MapEnvironment env;
  env.SetEnv("AWS_ENDPOINT_URL_ROUTE_53", "http://127.0.0.1:5301");
  env.SetEnv("AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", "http://127.0.0.1:5302");
  env.SetEnv("AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2", "http://127.0.0.1:5303");
  env.SetEnv("AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER", "http://127.0.0.1:5304");
  env.SetEnv("AWS_ENDPOINT_URL_SECRETS_MANAGER", "http://127.0.0.1:5305");
  env.SetEnv("AWS_ENDPOINT_URL_LOGS", "http://127.0.0.1:9999");  // not a variable the SDKs read
  AwsSettings settings;
  ASSERT_FALSE(ParseAwsSettings(Block({{"region", Value::String("us-west-2")}}), env, settings).HasErrors());
  EndpointResolver resolver(settings.region, settings.endpoints);
  EXPECT_EQ(resolver.Resolve("route53")->url, "http://127.0.0.1:5301");
  EXPECT_EQ(resolver.Resolve("logs")->url, "http://127.0.0.1:5302");
  EXPECT_EQ(resolver.Resolve("elbv2")->url, "http://127.0.0.1:5303");
  EXPECT_EQ(resolver.Resolve("cognito-idp")->url, "http://127.0.0.1:5304");
  EXPECT_EQ(resolver.Resolve("secretsmanager")->url, "http://127.0.0.1:5305");
}

TEST(AwsSettingsTest, IgnoreConfiguredEndpointUrls) {
  MapEnvironment env;
  env.SetEnv("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
  env.SetEnv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true");
  AwsSettings settings;
  ASSERT_FALSE(ParseAwsSettings(Block({{"region", Value::String("eu-west-1")}}), env, settings).HasErrors());
  EXPECT_EQ(EndpointResolver(settings.region, settings.endpoints).Resolve("ec2")->url,
            "https://ec2.eu-west-1.amazonaws.com");
}

TEST(AwsSettingsTest, UserErrorsAreExplained) {
  MapEnvironment env;
  AwsSettings settings;
  Diagnostics diags = ParseAwsSettings(Block({{"access_key", Value::String("AKIA")}}), env, settings);
  ASSERT_TRUE(diags.HasErrors());
  std::string all;
  for (const Diagnostic& d : diags) all += d.summary + ": " + d.detail + "\n";
  EXPECT_NE(all.find("No AWS region"), std::string::npos) << all;
  EXPECT_NE(all.find("both \"access_key\" and \"secret_key\""), std::string::npos) << all;
}

}  // namespace
}  // namespace strata::aws
