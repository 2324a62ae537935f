// Creates whose answer is lost: the sandbox makes the object, commits it, and answers 500
// (SandboxSettings::lost_reply_probability = 1: every call that changes the world loses its
// answer), as AWS does when a connection drops after the work is done. The provider must
// not send a create without a client token again (that would make a second object), must
// look for what the lost call made by the type's recovery and adopt it. Sandbox only: moto
// cannot lose answers on purpose.

#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;

const char* kTrust = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                     R"("Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]})";

class AwsLostReplyTest : public RecoveryTest {
 protected:
  AwsLostReplyTest() : RecoveryTest("lost create answers", {"ec2", "iam", "sts"}, "us-east-1") {}

  // Hides BackendProviderTest's: this suite's sandbox loses every changing call's answer.
  static void SetUpTestSuite() {
    sandbox::SandboxSettings settings = TestSandboxSettings();
    settings.lost_reply_probability = 1;
    sandbox_ = new sandbox::Sandbox(settings);
    if (!sandbox_->Start(sandbox_error_)) {
      delete sandbox_;
      sandbox_ = nullptr;
    }
  }

  //! A create as the engine sends it: a fresh token, not a resume.
  ApplyResult CreateFresh(const std::string& type, const Value& config) {
    return CreateAs(type, PlanCreate(type, config).planned, NewToken(), false);
  }
};

TEST_P(AwsLostReplyTest, TaggedCreateIsFoundNotSentAgain) {
  ApplyResult vpc = CreateFresh("aws_vpc", Obj({{"cidr_block", S("10.40.0.0/16")}, {"tags", Tags({{"Name", "lost-vpc"}})}}));
  ASSERT_FALSE(vpc.diags.HasErrors()) << Text(vpc.diags);
  EXPECT_FALSE(vpc.outcome_unknown);
  EXPECT_EQ(CountTagged("DescribeVpcs", "vpcSet", "Name", "lost-vpc"), 1)
      << "the create was sent again after its answer was lost";
  ExpectNoTokenTag(vpc.state);
  EXPECT_GE(sandbox_->stats().lost_replies, 1u);

  ApplyResult subnet = CreateFresh("aws_subnet", Obj({{"vpc_id", Attr(vpc.state, "id")},
                                                       {"cidr_block", S("10.40.1.0/24")},
                                                       {"availability_zone", S("us-east-1a")},
                                                       {"tags", Tags({{"Name", "lost-subnet"}})}}));
  ASSERT_FALSE(subnet.diags.HasErrors()) << Text(subnet.diags);
  EXPECT_EQ(CountTagged("DescribeSubnets", "subnetSet", "Name", "lost-subnet"), 1);
  ExpectReadsBack("aws_subnet", subnet.state);
}

TEST_P(AwsLostReplyTest, NaturalKeyCreateIsFoundByItsName) {
  ApplyResult role = CreateFresh("aws_iam_role", Obj({{"name", S("lost-role")}, {"assume_role_policy", S(kTrust)}}));
  ASSERT_FALSE(role.diags.HasErrors()) << "a role the lost call made must be adopted, not refused as taken: "
                                       << Text(role.diags);
  EXPECT_EQ(Str(role.state, "name"), "lost-role");
  ExpectNoTokenTag(role.state);
  ExpectReadsBack("aws_iam_role", role.state);
}

INSTANTIATE_TEST_SUITE_P(Sandbox, AwsLostReplyTest, ::testing::Values(Backend::Sandbox), BackendName);

}  // namespace
}  // namespace strata::aws
