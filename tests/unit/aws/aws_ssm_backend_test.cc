// data "aws_ssm_parameter" against the sandbox and moto, reached only through the provider's
// `endpoints` setting (Systems Manager over awsJson 1.1). Where moto departs from AWS, the
// test says so and skips that part loudly; the provider is never told:
//  - moto publishes none of the EKS-optimized AMI parameters: that case skips on moto.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;

class AwsSsmTest : public BackendProviderTest {
 protected:
  AwsSsmTest() : BackendProviderTest("Systems Manager", {"ssm"}, "us-west-2") {}

  //! PutParameter straight to the backend (there is no parameter resource type yet).
  RawAnswer Put(const std::string& name, const std::string& type, const std::string& value) {
    std::string body = R"({"Name":")" + name + R"(","Type":")" + type + R"(","Value":")" + value + R"(","Overwrite":true})";
    return RawJson("ssm", "AmazonSSM.PutParameter", body);
  }

  ReadResult Parameter(const std::string& name, Value with_decryption = Value()) {
    ValueMap config = {{"name", S(name)}};
    if (!with_decryption.IsNull()) config["with_decryption"] = with_decryption;
    return provider_.ReadDataSource(ctx_, "aws_ssm_parameter", Obj(config));
  }
};

TEST_P(AwsSsmTest, ReadsAStringParameterInClear) {
  ASSERT_EQ(Put("/platform/cluster-name", "String", "ml-platform").status, 200);
  ReadResult read = Parameter("/platform/cluster-name");
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(Str(read.state, "id"), "/platform/cluster-name");
  EXPECT_EQ(Str(read.state, "type"), "String");
  EXPECT_EQ(Attr(read.state, "value").AsString(), "ml-platform");
  EXPECT_TRUE(Attr(read.state, "value").IsSensitive());
  EXPECT_EQ(Str(read.state, "insecure_value"), "ml-platform");
  EXPECT_EQ(Str(read.state, "arn"), "arn:aws:ssm:us-west-2:" + Account() + ":parameter/platform/cluster-name");
  EXPECT_GE(Attr(read.state, "version").AsNumber(), 1);
}

TEST_P(AwsSsmTest, ASecureStringIsDecryptedOnlyWhenAskedAndNeverInClear) {
  ASSERT_EQ(Put("/platform/google-client-secret", "SecureString", "s3cr3t-value").status, 200);
  ReadResult read = Parameter("/platform/google-client-secret");
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(Attr(read.state, "value").AsString(), "s3cr3t-value");
  EXPECT_TRUE(Attr(read.state, "value").IsSensitive());
  EXPECT_TRUE(Attr(read.state, "insecure_value").IsNull());
  ReadResult sealed = Parameter("/platform/google-client-secret", Value::Bool(false));
  ASSERT_FALSE(sealed.diags.HasErrors()) << Text(sealed.diags);
  EXPECT_NE(Attr(sealed.state, "value").AsString(), "s3cr3t-value");
}

TEST_P(AwsSsmTest, AMissingParameterIsAnErrorNamingIt) {
  ReadResult read = Parameter("/platform/nope");
  ASSERT_TRUE(read.diags.HasErrors());
  EXPECT_NE(Text(read.diags).find("No SSM parameter \"/platform/nope\""), std::string::npos) << Text(read.diags);
  EXPECT_NE(Text(read.diags).find("ParameterNotFound"), std::string::npos) << Text(read.diags);
}

TEST_P(AwsSsmTest, EksOptimizedAmiIdsArePublishedPerVersion) {
  ReadResult gpu = Parameter("/aws/service/eks/optimized-ami/1.31/amazon-linux-2-gpu/recommended/image_id");
  if (IsMoto() && gpu.diags.HasErrors()) {
    GTEST_SKIP() << "moto publishes no EKS-optimized AMI parameters; AWS does in every region";
  }
  ASSERT_FALSE(gpu.diags.HasErrors()) << Text(gpu.diags);
  EXPECT_EQ(Str(gpu.state, "insecure_value").rfind("ami-", 0), 0u) << Str(gpu.state, "insecure_value");
  ReadResult al2023 = Parameter("/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/nvidia/recommended/image_id");
  ASSERT_FALSE(al2023.diags.HasErrors()) << Text(al2023.diags);
  EXPECT_NE(Str(al2023.state, "insecure_value"), Str(gpu.state, "insecure_value"));
  // Amazon Linux 2 AMIs end with Kubernetes 1.32.
  EXPECT_TRUE(Parameter("/aws/service/eks/optimized-ami/1.33/amazon-linux-2-gpu/recommended/image_id").diags.HasErrors());
}

STRATA_AWS_BACKENDS(AwsSsmTest);

}  // namespace
}  // namespace strata::aws
