// aws_autoscaling_group against the sandbox and moto, reached only through the provider's
// `endpoints` setting: a group with a mixed instances policy over a launch template, read
// back and planned clean, resized in place, imported by name, recovered after an interrupted
// create (found by name and the token tag the create call set, never made twice), and
// destroyed. Where moto departs from AWS, the test says so:
//  - moto launches fewer instances than a mixed instances policy's desired capacity, so on
//    moto the groups do not wait for capacity ("0");
//  - moto accepts a max_size under min_size: that case skips loudly on moto;
//  - moto takes a second CreateAutoScalingGroup of a name (AWS: AlreadyExists): not asked there.

#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

constexpr const char* kRegion = "us-west-2";
constexpr const char* kType = "aws_autoscaling_group";

class AwsAutoscalingGroupTest : public RecoveryTest {
 protected:
  AwsAutoscalingGroupTest() : RecoveryTest("Auto Scaling", {"autoscaling", "ec2", "sts"}, kRegion) {}

  void SetUp() override {
    RecoveryTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    suffix_ = UniqueSuffix();
    Value vpc = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.1.0.0/16")}}));
    ValueList subnets;
    for (int i = 0; i < 2; ++i) {
      Value subnet = MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc, "id")},
                                                   {"cidr_block", S("10.1." + std::to_string(i) + ".0/24")},
                                                   {"availability_zone", S(std::string(kRegion) + (i ? "b" : "a"))}}));
      subnets.push_back(Attr(subnet, "id"));
    }
    subnets_ = Value::Set(subnets);
    template_ = MustCreate("aws_launch_template", Obj({{"name", S("asg-lt-" + suffix_)},
                                                        {"image_id", S("ami-12c6146b")},
                                                        {"instance_type", S("m5.large")}}));
  }

  Value MixedPolicy(double base, double percentage) const {
    Value distribution = Obj({{"on_demand_base_capacity", N(base)},
                              {"on_demand_percentage_above_base_capacity", N(percentage)},
                              {"spot_allocation_strategy", S("lowest-price")},
                              {"spot_max_price", S("0.10")}});
    Value spec = Obj({{"launch_template_id", Attr(template_, "id")}, {"launch_template_name", Value()}, {"version", S("$Latest")}});
    ValueList overrides;
    for (const char* type : {"m5.large", "m5a.large"}) {
      overrides.push_back(Obj({{"instance_type", S(type)}, {"weighted_capacity", S("1")}}));
    }
    return Value::List({Obj({{"instances_distribution", Value::List({distribution})},
                             {"launch_template", Value::List({Obj({{"launch_template_specification", Value::List({spec})},
                                                                   {"override", Value::List(overrides)}})})}})});
  }

  Value GroupConfig(const std::string& name, double min, double max, double desired) const {
    return Obj({{"name", S(name)},
                {"min_size", N(min)},
                {"max_size", N(max)},
                {"desired_capacity", N(desired)},
                {"vpc_zone_identifier", subnets_},
                {"mixed_instances_policy", MixedPolicy(1, 25)},
                {"tag", Value::Set({Obj({{"key", S("team")}, {"value", S("infra")}, {"propagate_at_launch", Value::Bool(true)}})})},
                // moto launches fewer instances than a mixed policy's desired capacity: no wait there.
                {"wait_for_capacity_timeout", S(IsMoto() ? "0" : "2m")}});
  }

  //! How many groups named `name` the backend lists.
  int Count(const std::string& name) {
    RawAnswer answer = RawQuery("autoscaling", "2011-01-01",
                                "Action=DescribeAutoScalingGroups&AutoScalingGroupNames.member.1=" + name);
    EXPECT_EQ(answer.status, 200) << answer.error;
    int n = 0;
    for (size_t at = answer.body.find("<AutoScalingGroupName>" + name + "<"); at != std::string::npos;
         at = answer.body.find("<AutoScalingGroupName>" + name + "<", at + 1)) {
      ++n;
    }
    return n;
  }

  std::string suffix_;
  Value subnets_, template_;
};

TEST_P(AwsAutoscalingGroupTest, MixedInstancesCreateReadResizeImportDelete) {
  std::string name = "asg-" + suffix_;
  Value config = GroupConfig(name, 1, 4, 2);
  ApplyResult created = Create(kType, config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  Value state = created.state;
  EXPECT_EQ(Str(state, "id"), name);
  EXPECT_NE(Str(state, "arn").find(":autoScalingGroup:"), std::string::npos) << Str(state, "arn");
  EXPECT_EQ(Attr(state, "desired_capacity"), N(2));
  ExpectNoChange(kType, state, config);

  Value resized = UpdateInPlace(kType, state, GroupConfig(name, 0, 6, 3));
  EXPECT_EQ(Attr(resized, "max_size"), N(6));
  EXPECT_EQ(Attr(resized, "desired_capacity"), N(3));
  ExpectNoChange(kType, resized, GroupConfig(name, 0, 6, 3));

  ApplyResult imported = provider_.ImportResource(ctx_, kType, name);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Attr(imported.state, "min_size"), N(0));
  EXPECT_EQ(Attr(imported.state, "arn"), Attr(resized, "arn"));

  if (!IsMoto()) {  // moto answers a second CreateAutoScalingGroup of a name by replacing the group
    ApplyResult again = Create(kType, config);
    ASSERT_TRUE(again.diags.HasErrors()) << "a second group of the same name was made";
    EXPECT_NE(Text(again.diags).find("AlreadyExists"), std::string::npos) << Text(again.diags);
  }

  MustDelete(kType, resized);
  EXPECT_EQ(Count(name), 0);
  ReadResult read = provider_.ReadResource(ctx_, kType, resized);
  EXPECT_TRUE(read.gone) << FormatValue(read.state);
}

TEST_P(AwsAutoscalingGroupTest, SizesOutOfOrderAreRefusedAsAwsRefusesThem) {
  if (IsMoto()) GTEST_SKIP() << "moto makes a group whose max_size is under its min_size (AWS: ValidationError)";
  Value config = With(GroupConfig("asg-bad-" + suffix_, 3, 1, 2), "wait_for_capacity_timeout", S("0"));
  ApplyResult created = Create(kType, config);
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_NE(Text(created.diags).find("ValidationError"), std::string::npos) << Text(created.diags);
  EXPECT_EQ(Count("asg-bad-" + suffix_), 0);
}

TEST_P(AwsAutoscalingGroupTest, AnInterruptedCreateIsFoundByNameAndTokenNotMadeTwice) {
  std::string name = "asg-rec-" + suffix_;
  PlanResult plan = PlanCreate(kType, With(GroupConfig(name, 0, 2, 1), "wait_for_capacity_timeout", S("0")));
  std::string token = NewToken();
  ApplyResult first = Interrupted(kType, plan.planned, token);
  ExpectDestroyFinds(kType, plan.planned, token, "id", name);
  Value resumed = MustResume(kType, plan.planned, token);
  EXPECT_EQ(Str(resumed, "arn"), Str(first.state, "arn"));
  EXPECT_EQ(Count(name), 1);

  // Someone else's group of that name is not adopted.
  ApplyResult other = Resume(kType, plan.planned, NewToken());
  ExpectNotOursError(other);

  MustDelete(kType, resumed);
  ExpectDestroyFindsNothing(kType, plan.planned, token);
}

STRATA_AWS_BACKENDS(AwsAutoscalingGroupTest);

}  // namespace
}  // namespace strata::aws
