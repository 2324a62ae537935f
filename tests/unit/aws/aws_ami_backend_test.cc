// data "aws_ami" against the sandbox and moto, reached only through the provider's `endpoints`
// setting. The sandbox's images are the EKS-optimized AMIs AWS publishes (the same ids
// Systems Manager's public parameters name); moto has its own catalogue of Amazon images and
// none of EKS's, so the EKS cases skip loudly on moto and a generic lookup runs on both.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;

Value NameFilter(const std::string& pattern) {
  ValueList values = {S(pattern)};
  return Value::List({Obj({{"name", S("name")}, {"values", Value::Set(values)}})});
}

class AwsAmiTest : public BackendProviderTest {
 protected:
  AwsAmiTest() : BackendProviderTest("EC2 images", {"ec2", "ssm"}, "us-west-2") {}

  ReadResult Ami(const Value& config) { return provider_.ReadDataSource(ctx_, "aws_ami", config); }
};

TEST_P(AwsAmiTest, TheEksGpuAmiByNameIsTheOneSsmPublishes) {
  ReadResult published = provider_.ReadDataSource(
      ctx_, "aws_ssm_parameter", Obj({{"name", S("/aws/service/eks/optimized-ami/1.31/amazon-linux-2-gpu/recommended/image_id")}}));
  if (IsMoto() && published.diags.HasErrors()) GTEST_SKIP() << "moto publishes no EKS-optimized AMIs (AWS does in every region)";
  ASSERT_FALSE(published.diags.HasErrors()) << Text(published.diags);
  ReadResult ami = Ami(Obj({{"owners", L({"amazon"})}, {"filter", NameFilter("amazon-eks-gpu-node-1.31-v*")}}));
  ASSERT_FALSE(ami.diags.HasErrors()) << Text(ami.diags);
  EXPECT_EQ(Str(ami.state, "id"), Str(published.state, "insecure_value"));
  EXPECT_EQ(Str(ami.state, "architecture"), "x86_64");
  EXPECT_EQ(Str(ami.state, "owner_id"), "602401143452");
  EXPECT_EQ(Str(ami.state, "arn"), "arn:aws:ec2:us-west-2::image/" + Str(ami.state, "id"));
  EXPECT_EQ(Attr(ami.state, "ena_support"), Value::Bool(true));
  // name_regex narrows client-side; several matches need most_recent.
  ReadResult many = Ami(Obj({{"owners", L({"amazon"})}, {"filter", NameFilter("amazon-eks-node-al2023-*")}}));
  ASSERT_TRUE(many.diags.HasErrors());
  EXPECT_NE(Text(many.diags).find("most_recent"), std::string::npos) << Text(many.diags);
  ReadResult arm = Ami(Obj({{"owners", L({"602401143452"})},
                            {"filter", NameFilter("amazon-eks-node-al2023-*")},
                            {"name_regex", S("arm64-standard-1\\.33-")},
                            {"most_recent", Value::Bool(true)}}));
  ASSERT_FALSE(arm.diags.HasErrors()) << Text(arm.diags);
  EXPECT_EQ(Str(arm.state, "architecture"), "arm64");
  // No Amazon Linux 2 AMIs after 1.32.
  EXPECT_TRUE(Ami(Obj({{"owners", L({"amazon"})}, {"filter", NameFilter("amazon-eks-gpu-node-1.33-*")}})).diags.HasErrors());
}

TEST_P(AwsAmiTest, NoMatchAndABadRegexAreClearErrors) {
  ReadResult none = Ami(Obj({{"owners", L({"self"})}, {"filter", NameFilter("no-such-image-*")}}));
  ASSERT_TRUE(none.diags.HasErrors());
  EXPECT_NE(Text(none.diags).find("No matching AMI"), std::string::npos) << Text(none.diags);
  ReadResult bad = Ami(Obj({{"owners", L({"amazon"})}, {"name_regex", S("([")}, {"most_recent", Value::Bool(true)}}));
  ASSERT_TRUE(bad.diags.HasErrors());
  EXPECT_NE(Text(bad.diags).find("name_regex"), std::string::npos) << Text(bad.diags);
}

STRATA_AWS_BACKENDS(AwsAmiTest);

}  // namespace
}  // namespace strata::aws
