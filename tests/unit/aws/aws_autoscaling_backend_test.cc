// aws_autoscaling_group_tag and data aws_autoscaling_groups against the sandbox and moto,
// reached only through the provider's `endpoints` setting. The group under test is the one
// EKS makes for a managed node group — in the sandbox, as on AWS. Where moto departs from
// AWS, the test says so; the provider is never told:
//  - moto's EKS node groups make no Auto Scaling group: on moto the suite makes one with
//    CreateAutoScalingGroup (from a launch configuration), and the cases about what EKS
//    puts on its group skip loudly;
//  - moto answers CreateOrUpdateTags on a missing group with a 500 instead of AWS's
//    ValidationError: that case skips loudly on moto.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

constexpr const char* kRegion = "us-west-2";
constexpr const char* kGpuLabelTag = "k8s.io/cluster-autoscaler/node-template/label/nvidia.com/gpu";

Value TagBlock(const std::string& key, const std::string& value, bool propagate) {
  return Value::List({Obj({{"key", S(key)}, {"value", S(value)}, {"propagate_at_launch", Value::Bool(propagate)}})});
}

class AwsAutoscalingTest : public BackendProviderTest {
 protected:
  AwsAutoscalingTest() : BackendProviderTest("Auto Scaling", {"autoscaling", "eks", "ec2", "iam", "sts"}, kRegion) {}

  void SetUp() override {
    BackendProviderTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    suffix_ = UniqueSuffix();
    cluster_ = "asg-" + suffix_;
    group_ = IsMoto() ? MakeMotoGroup() : MakeNodeGroup();
  }

  //! The sandbox: a cluster and a GPU node group scaling from zero; its group is EKS's.
  std::string MakeNodeGroup() {
    EksNeeds needs = MakeEksNeeds("asg-" + suffix_ + "-");
    ValueList subnets;
    for (const Value& subnet : needs.subnets) subnets.push_back(Attr(subnet, "id"));
    MustCreate("aws_eks_cluster", Obj({{"name", S(cluster_)},
                                      {"role_arn", Attr(needs.cluster_role, "arn")},
                                      {"vpc_config", Value::List({Obj({{"subnet_ids", Value::Set(subnets)}})})}}));
    node_group_ = MustCreate(
        "aws_eks_node_group",
        Obj({{"cluster_name", S(cluster_)},
             {"node_group_name", S("gpu")},
             {"node_role_arn", Attr(needs.node_role, "arn")},
             {"subnet_ids", Value::Set(subnets)},
             {"instance_types", L({"g5.xlarge"})},
             {"capacity_type", S("SPOT")},
             {"scaling_config", Value::List({Obj({{"desired_size", N(0)}, {"min_size", N(0)}, {"max_size", N(4)}})})}}));
    Value groups = Attr(Attr(node_group_, "resources").AsList().front(), "autoscaling_groups");
    return Str(groups.AsList().front(), "name");
  }

  //! moto: a group made by hand (moto's node groups make none).
  std::string MakeMotoGroup() {
    std::string name = "moto-group-" + suffix_;
    RawAnswer config = RawQuery("autoscaling", "2011-01-01",
                                "Action=CreateLaunchConfiguration&LaunchConfigurationName=lc-" + suffix_ +
                                    "&ImageId=ami-12c6146b&InstanceType=g5.xlarge");
    EXPECT_EQ(config.status, 200) << config.error;
    RawAnswer group = RawQuery("autoscaling", "2011-01-01",
                               "Action=CreateAutoScalingGroup&AutoScalingGroupName=" + name + "&LaunchConfigurationName=lc-" +
                                   suffix_ + "&MinSize=0&MaxSize=4&AvailabilityZones.member.1=us-west-2a" +
                                   "&Tags.member.1.Key=k8s.io/cluster-autoscaler/" + cluster_ +
                                   "&Tags.member.1.Value=owned&Tags.member.1.PropagateAtLaunch=true" +
                                   "&Tags.member.1.ResourceId=" + name + "&Tags.member.1.ResourceType=auto-scaling-group");
    EXPECT_EQ(group.status, 200) << group.error;
    return name;
  }

  Value TagConfig(const std::string& key, const std::string& value, bool propagate = true) const {
    return Obj({{"autoscaling_group_name", S(group_)}, {"tag", TagBlock(key, value, propagate)}});
  }

  Value Groups(const Value& config) {
    ReadResult read = provider_.ReadDataSource(ctx_, "aws_autoscaling_groups", config);
    EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
    return read.state;
  }

  std::string suffix_, cluster_, group_;
  Value node_group_;
};

TEST_P(AwsAutoscalingTest, TagCreateReadUpdateReplaceImportDelete) {
  ApplyResult created = Create("aws_autoscaling_group_tag", TagConfig(kGpuLabelTag, "true"));
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), group_ + "," + kGpuLabelTag);
  EXPECT_EQ(Attr(state, "tag"), TagBlock(kGpuLabelTag, "true", true));
  ExpectReadsBack("aws_autoscaling_group_tag", state);

  // The value and propagate_at_launch change in place; a new key is a new tag.
  Value updated = UpdateInPlace("aws_autoscaling_group_tag", state, TagConfig(kGpuLabelTag, "1", false));
  EXPECT_EQ(Attr(updated, "tag"), TagBlock(kGpuLabelTag, "1", false));
  ExpectReadsBack("aws_autoscaling_group_tag", updated);
  PlanResult rekey = PlanUpdate("aws_autoscaling_group_tag", updated, TagConfig("k8s.io/other", "1", false));
  ASSERT_FALSE(rekey.diags.HasErrors()) << Text(rekey.diags);
  ASSERT_EQ(rekey.requires_replace.size(), 1u);
  EXPECT_EQ(rekey.requires_replace[0].ToString(), "tag[0].key");
  PlanResult regroup = PlanUpdate("aws_autoscaling_group_tag", updated,
                                  With(TagConfig(kGpuLabelTag, "1", false), "autoscaling_group_name", S("elsewhere")));
  EXPECT_FALSE(regroup.requires_replace.empty());

  // The natural key: an interrupted create's tag is found, whoever set it.
  PlanResult plan = PlanCreate("aws_autoscaling_group_tag", TagConfig(kGpuLabelTag, "true"));
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_autoscaling_group_tag", plan.planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_FALSE(found.gone);
  EXPECT_EQ(Str(found.state, "id"), Str(state, "id"));

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_autoscaling_group_tag", group_ + "," + kGpuLabelTag);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(imported.state, updated);
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_autoscaling_group_tag", "no-comma").diags.HasErrors());

  MustDelete("aws_autoscaling_group_tag", updated);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_autoscaling_group_tag", updated).gone);
  MustDelete("aws_autoscaling_group_tag", updated);  // already gone: nothing to do
  ReadResult after = provider_.FindInterruptedCreate(ctx_, "aws_autoscaling_group_tag", plan.planned);
  EXPECT_TRUE(after.gone) << Text(after.diags);
}

TEST_P(AwsAutoscalingTest, ATagOnAMissingGroupIsAClearError) {
  if (IsMoto()) GTEST_SKIP() << "moto answers CreateOrUpdateTags on a missing group with a 500, AWS with a ValidationError";
  ApplyResult created = Create("aws_autoscaling_group_tag",
                               With(TagConfig("team", "ml"), "autoscaling_group_name", S("no-such-group")));
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_FALSE(created.outcome_unknown);
  EXPECT_NE(Text(created.diags).find("No Auto Scaling group \"no-such-group\""), std::string::npos) << Text(created.diags);
  EXPECT_NE(Text(created.diags).find("ValidationError"), std::string::npos) << Text(created.diags);
}

TEST_P(AwsAutoscalingTest, GroupsDataSourceFindsGroupsByTagAndName) {
  Value mine = Groups(Obj({{"filter", Value::Set({Obj({{"name", S("tag:k8s.io/cluster-autoscaler/" + cluster_)},
                                                       {"values", L({"owned"})}})})}}));
  EXPECT_EQ(Attr(mine, "names"), L({group_}));
  ASSERT_EQ(Attr(mine, "arns").AsList().size(), 1u);
  EXPECT_NE(Attr(mine, "arns").AsList().front().AsString().find(":autoScalingGroupName/" + group_), std::string::npos);
  EXPECT_EQ(Str(mine, "id"), kRegion);

  // Terraform's "key" is tag-key.
  Value by_key = Groups(Obj({{"filter", Value::Set({Obj({{"name", S("key")},
                                                         {"values", L({"k8s.io/cluster-autoscaler/" + cluster_})}})})}}));
  EXPECT_EQ(Attr(by_key, "names"), L({group_}));
  Value by_name = Groups(Obj({{"names", L({group_, "no-such-group"})}}));
  EXPECT_EQ(Attr(by_name, "names"), L({group_}));
  Value none = Groups(Obj({{"filter", Value::Set({Obj({{"name", S("tag:k8s.io/cluster-autoscaler/" + cluster_)},
                                                       {"values", L({"shared"})}})})}}));
  EXPECT_EQ(Attr(none, "names"), Value::List({}));
  EXPECT_EQ(Attr(none, "arns"), Value::List({}));
}

TEST_P(AwsAutoscalingTest, EksMakesTheNodeGroupsGroupResizesAndDeletesIt) {
  if (IsMoto()) GTEST_SKIP() << "moto's EKS node groups make no Auto Scaling group (AWS's do)";
  EXPECT_EQ(group_.rfind("eks-gpu-", 0), 0u) << group_;
  // EKS's own tags, which the cluster-autoscaler's auto-discovery reads.
  const std::vector<std::string> eks_keys = {"k8s.io/cluster-autoscaler/enabled", "k8s.io/cluster-autoscaler/" + cluster_,
                                             "eks:cluster-name", "eks:nodegroup-name", "kubernetes.io/cluster/" + cluster_};
  for (const std::string& key : eks_keys) {
    Value by_key = Groups(Obj({{"filter", Value::Set({Obj({{"name", S("tag-key")}, {"values", L({key})}})})}}));
    const ValueList& names = Attr(by_key, "names").AsList();
    EXPECT_NE(std::find(names.begin(), names.end(), S(group_)), names.end()) << key;
  }
  RawAnswer described = RawQuery("autoscaling", "2011-01-01",
                                 "Action=DescribeAutoScalingGroups&AutoScalingGroupNames.member.1=" + group_);
  ASSERT_EQ(described.status, 200) << described.error;
  EXPECT_NE(described.body.find("<MaxSize>4</MaxSize>"), std::string::npos) << described.body;
  EXPECT_NE(described.body.find("<InstanceType>g5.xlarge</InstanceType>"), std::string::npos) << described.body;
  EXPECT_NE(described.body.find("<SpotAllocationStrategy>capacity-optimized</SpotAllocationStrategy>"), std::string::npos);

  // The node group's scaling is the group's.
  Value config = node_group_;
  config = With(config, "scaling_config", Value::List({Obj({{"desired_size", N(1)}, {"min_size", N(1)}, {"max_size", N(6)}})}));
  UpdateInPlace("aws_eks_node_group", node_group_, config);
  described = RawQuery("autoscaling", "2011-01-01", "Action=DescribeAutoScalingGroups&AutoScalingGroupNames.member.1=" + group_);
  EXPECT_NE(described.body.find("<MaxSize>6</MaxSize>"), std::string::npos) << described.body;
  EXPECT_NE(described.body.find("<DesiredCapacity>1</DesiredCapacity>"), std::string::npos) << described.body;

  // Deleted with the node group (the node group's delete waits until it is gone).
  MustCreate("aws_autoscaling_group_tag", TagConfig(kGpuLabelTag, "true"));
  MustDelete("aws_eks_node_group", node_group_);
  EXPECT_EQ(Attr(Groups(Obj({{"names", L({group_})}})), "names"), Value::List({}));
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_autoscaling_group_tag",
                                     Obj({{"id", S(group_ + "," + kGpuLabelTag)}}))
                  .gone);
}

STRATA_AWS_BACKENDS(AwsAutoscalingTest);

}  // namespace
}  // namespace strata::aws
