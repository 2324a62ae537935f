// Recovery of an interrupted create of the aws provider's EKS types, against the sandbox
// and moto. All three are ClientToken types: the re-sent create carries the same
// clientRequestToken, which EKS answers with the object the first run made — the same
// ARN and creation time, one object of that name — and a fresh token creates
// (recovery_test_support.h). State never shows a create-token tag (EKS types send none).
// Where moto departs from AWS, the case says so:
//  - moto answers a repeated token on CreateCluster with ResourceInUseException; the
//    provider adopts the cluster then because DescribeCluster tells its token back;
//  - moto does the same on CreateNodegroup, whose answer does not tell the token back: the
//    node group's same-token case is skipped there;
//  - moto has no add-on API: the add-on cases are skipped there.

#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;

constexpr const char* kRegion = "us-west-2";

class AwsEksRecoveryTest : public RecoveryTest {
 protected:
  AwsEksRecoveryTest() : RecoveryTest("EKS create recovery", {"eks", "ec2", "iam", "sts"}, kRegion) {}

  void SetUp() override {
    RecoveryTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    static int n = 0;
    suffix_ = std::to_string(++n);
    needs_ = MakeEksNeeds("rec-eks-" + suffix_ + "-");
  }

  Value SubnetIds() const {
    ValueList ids;
    for (const Value& subnet : needs_.subnets) ids.push_back(Attr(subnet, "id"));
    return Value::Set(std::move(ids));
  }
  Value Cluster(const std::string& name) const {
    return Value::Object({{"name", S(name)},
                          {"role_arn", Attr(needs_.cluster_role, "arn")},
                          {"vpc_config", Value::List({Value::Object({{"subnet_ids", SubnetIds()}})})},
                          {"tags", Tags({{"Name", name}})}});
  }
  //! A cluster for node groups and add-ons (made with a token, as the engine does).
  Value MustCluster(const std::string& name) {
    ApplyResult r = CreateAs("aws_eks_cluster", PlanCreate("aws_eks_cluster", Cluster(name)).planned, NewToken(), false);
    EXPECT_FALSE(r.diags.HasErrors()) << Text(r.diags);
    return r.state;
  }
  Value NodeGroup(const std::string& cluster, const std::string& name) const {
    return Value::Object(
        {{"cluster_name", S(cluster)},
         {"node_group_name", S(name)},
         {"node_role_arn", Attr(needs_.node_role, "arn")},
         {"subnet_ids", SubnetIds()},
         {"scaling_config", Value::List({Value::Object({{"desired_size", N(0)}, {"min_size", N(0)}, {"max_size", N(1)}})})},
         {"tags", Tags({{"Name", name}})}});
  }

  //! How many `what` ("clusters", "nodegroups", "addons") ListClusters & co. answer with
  //! the name `name` under `path`.
  int Listed(const std::string& path, const std::string& name) const {
    return Occurrences(Raw("eks", "GET", path).body, "\"" + name + "\"");
  }

  //! The ClientToken cases of one type: `config` created by an interrupted run and resumed
  //! under the same token is the same object (ARN and creation time), one of that name
  //! under `list_path`; `fresh` resumed under a fresh token is created. Returns both states.
  std::pair<Value, Value> ExpectClientTokenRecovery(const std::string& type, const Value& config, const Value& fresh,
                                                    const std::string& list_path, const std::string& name) {
    Value planned = PlanCreate(type, config).planned;
    std::string token = NewToken();
    ApplyResult first = Interrupted(type, planned, token);
    // A destroy finds it by the token EKS reads back (a cluster's clientRequestToken, the
    // create-token tag of a node group or add-on), and only with that token.
    ExpectDestroyFinds(type, planned, token, "arn", Str(first.state, "arn"));
    ExpectDestroyFindsNothing(type, planned, NewToken());
    Value resumed = MustResume(type, planned, token);
    EXPECT_EQ(Str(resumed, "arn"), Str(first.state, "arn")) << type;
    EXPECT_EQ(Str(resumed, "created_at"), Str(first.state, "created_at")) << type;
    EXPECT_EQ(Listed(list_path, name), 1) << type;
    ExpectNoTokenTag(resumed);
    Value made = MustResume(type, PlanCreate(type, fresh).planned, NewToken());
    EXPECT_NE(Str(made, "arn"), Str(resumed, "arn")) << type;
    ExpectNoTokenTag(made);
    return {resumed, made};
  }

  std::string suffix_;
  EksNeeds needs_;
};

TEST_P(AwsEksRecoveryTest, ClusterResentWithItsClientTokenIsTheSameCluster) {
  std::string a = "rec-a-" + suffix_, b = "rec-b-" + suffix_;
  auto [resumed, made] = ExpectClientTokenRecovery("aws_eks_cluster", Cluster(a), Cluster(b), "/clusters", a);
  EXPECT_EQ(Listed("/clusters", b), 1);
  MustDelete("aws_eks_cluster", resumed);
  MustDelete("aws_eks_cluster", made);
}

TEST_P(AwsEksRecoveryTest, NodeGroupResentWithItsClientTokenIsTheSameNodeGroup) {
  std::string cluster_name = "rec-ng-" + suffix_;
  Value cluster = MustCluster(cluster_name);
  std::string path = "/clusters/" + cluster_name + "/node-groups";
  if (IsMoto()) {
    std::cerr << "\n**********************************************************************\n"
              << "*** SKIPPING the re-sent node group create on moto: moto answers a repeated\n"
              << "*** clientRequestToken on CreateNodegroup with ResourceInUseException (AWS and the\n"
              << "*** sandbox answer it with the node group it made).\n"
              << "**********************************************************************\n";
    Value made = MustResume("aws_eks_node_group", PlanCreate("aws_eks_node_group", NodeGroup(cluster_name, "b")).planned, NewToken());
    EXPECT_EQ(Listed(path, "b"), 1);
    MustDelete("aws_eks_node_group", made);
    MustDelete("aws_eks_cluster", cluster);
    GTEST_SKIP() << "moto ignores clientRequestToken on CreateNodegroup";
  }
  auto [resumed, made] = ExpectClientTokenRecovery("aws_eks_node_group", NodeGroup(cluster_name, "a"),
                                                   NodeGroup(cluster_name, "b"), path, "a");
  MustDelete("aws_eks_node_group", resumed);
  MustDelete("aws_eks_node_group", made);
  MustDelete("aws_eks_cluster", cluster);
}

TEST_P(AwsEksRecoveryTest, AddonResentWithItsClientTokenIsTheSameAddon) {
  std::string cluster_name = "rec-addon-" + suffix_;
  Value cluster = MustCluster(cluster_name);
  std::string path = "/clusters/" + cluster_name + "/addons";
  if (Raw("eks", "GET", path).status == 404) {
    std::cerr << "\n**********************************************************************\n"
              << "*** SKIPPING aws_eks_addon recovery on this endpoint (moto): it has no add-on API.\n"
              << "**********************************************************************\n";
    MustDelete("aws_eks_cluster", cluster);
    GTEST_SKIP() << "EKS add-ons not implemented by the endpoint";
  }
  auto addon = [&](const std::string& name) {
    return Value::Object({{"cluster_name", S(cluster_name)}, {"addon_name", S(name)}, {"tags", Tags({{"Name", name}})}});
  };
  auto [resumed, made] = ExpectClientTokenRecovery("aws_eks_addon", addon("vpc-cni"), addon("coredns"), path, "vpc-cni");
  MustDelete("aws_eks_addon", resumed);
  MustDelete("aws_eks_addon", made);
  MustDelete("aws_eks_cluster", cluster);
}

STRATA_AWS_BACKENDS(AwsEksRecoveryTest);

}  // namespace
}  // namespace strata::aws
