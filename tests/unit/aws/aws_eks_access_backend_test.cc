// aws_eks_access_entry and aws_eks_access_policy_association against the sandbox and moto,
// reached only through the provider's `endpoints` setting. Where moto departs from AWS, the
// test says so; the provider is never told:
//  - moto (5.x) has no access entries at all: every case here skips on moto, loudly, after
//    checking that the route is indeed missing.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

Value Set(std::vector<std::string> items) {
  ValueList out;
  for (const auto& s : items) out.push_back(S(s));
  return Value::Set(std::move(out));
}

const char* kAdminPolicy = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy";
const char* kViewPolicy = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy";

class AwsEksAccessTest : public BackendProviderTest {
 protected:
  AwsEksAccessTest() : BackendProviderTest("EKS access entries", {"eks", "ec2", "iam", "sts"}, "us-west-2") {}

  void SetUp() override {
    BackendProviderTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (IsMoto()) {
      RawAnswer probe = Raw("eks", "GET", "/clusters/none/access-entries");
      if (probe.status == 404 && probe.error != "ResourceNotFoundException")
        GTEST_SKIP() << "moto does not implement EKS access entries (ListAccessEntries is not routed)";
    }
    static int n = 0;
    suffix_ = std::to_string(++n);
    EksNeeds needs = MakeEksNeeds("acc-" + suffix_ + "-");
    admin_role_ = Str(needs.node_role, "arn");  // any IAM role will do as a principal
    cluster_ = "access-" + suffix_;
    ctx_.idempotency_token = "token-" + cluster_;
    MustCreate("aws_eks_cluster",
               Value::Object({{"name", S(cluster_)},
                              {"role_arn", S(Str(needs.cluster_role, "arn"))},
                              {"vpc_config", Value::List({Value::Object(
                                                 {{"subnet_ids", Set({Str(needs.subnets[0], "id"), Str(needs.subnets[1], "id")})}})})},
                              {"access_config", Value::List({Value::Object({{"authentication_mode", S("API_AND_CONFIG_MAP")}})})}}));
    ctx_.idempotency_token.clear();
  }

  Value EntryConfig(std::vector<std::string> groups) const {
    return Value::Object({{"cluster_name", S(cluster_)},
                          {"principal_arn", S(admin_role_)},
                          {"kubernetes_groups", Set(std::move(groups))},
                          {"tags", Tags({{"team", "ml"}})}});
  }
  Value AssociationConfig(const std::string& policy, const std::string& scope, std::vector<std::string> namespaces) const {
    // Unset namespaces are null, as the engine's conversion to the schema's type makes them.
    ValueMap block = {{"type", S(scope)}, {"namespaces", namespaces.empty() ? Value() : Set(std::move(namespaces))}};
    return Value::Object({{"cluster_name", S(cluster_)},
                          {"principal_arn", S(admin_role_)},
                          {"policy_arn", S(policy)},
                          {"access_scope", Value::List({Value::Object(std::move(block))})}});
  }

  std::string suffix_, cluster_, admin_role_;
};

TEST_P(AwsEksAccessTest, EntryCreateReadUpdateImportDelete) {
  ctx_.idempotency_token = "token-entry";
  ApplyResult created = Create("aws_eks_access_entry", EntryConfig({"ml-admins"}));
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), cluster_ + ":" + admin_role_);
  EXPECT_EQ(Str(state, "type"), "STANDARD");
  EXPECT_EQ(Attr(state, "kubernetes_groups"), Set({"ml-admins"}));
  // EKS's own user name for a role: its assumed-role sessions.
  EXPECT_NE(Str(state, "user_name").find(":assumed-role/"), std::string::npos) << Str(state, "user_name");
  EXPECT_EQ(Str(state, "access_entry_arn").rfind("arn:aws:eks:us-west-2:" + Account() + ":access-entry/" + cluster_ + "/role/", 0), 0u)
      << Str(state, "access_entry_arn");
  EXPECT_EQ(Attr(state, "tags"), Tags({{"team", "ml"}}));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"team", "ml"}, {"Owner", "strata-tests"}}));
  ExpectReadsBack("aws_eks_access_entry", state);

  // A re-sent create (same token) is answered with the same entry; another is refused.
  ApplyResult again = Create("aws_eks_access_entry", EntryConfig({"ml-admins"}));
  EXPECT_FALSE(again.diags.HasErrors()) << Text(again.diags);
  ctx_.idempotency_token = "token-other";
  ApplyResult other = Create("aws_eks_access_entry", EntryConfig({"ml-admins"}));
  ASSERT_TRUE(other.diags.HasErrors());
  EXPECT_NE(Text(other.diags).find("ResourceInUseException"), std::string::npos) << Text(other.diags);
  ctx_.idempotency_token.clear();

  // Groups, user name and tags change in place.
  Value config = With(EntryConfig({"ml-admins", "viewers"}), "user_name", S("ci-deployer"));
  config = With(config, "tags", Tags({{"team", "platform"}}));
  Value updated = UpdateInPlace("aws_eks_access_entry", state, config);
  EXPECT_EQ(Attr(updated, "kubernetes_groups"), Set({"ml-admins", "viewers"}));
  EXPECT_EQ(Str(updated, "user_name"), "ci-deployer");
  EXPECT_EQ(Attr(updated, "tags"), Tags({{"team", "platform"}}));
  ExpectReadsBack("aws_eks_access_entry", updated);

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_eks_access_entry", cluster_ + ":" + admin_role_);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "user_name"), "ci-deployer");
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_eks_access_entry", "just-a-name").diags.HasErrors());

  MustDelete("aws_eks_access_entry", updated);
  ReadResult gone = provider_.ReadResource(ctx_, "aws_eks_access_entry", updated);
  EXPECT_TRUE(gone.gone) << Text(gone.diags);
  MustDelete("aws_eks_access_entry", updated);  // already gone: nothing to do
}

TEST_P(AwsEksAccessTest, EksRefusalsAreClearErrors) {
  ApplyResult system_group = Create("aws_eks_access_entry", EntryConfig({"system:masters"}));
  ASSERT_TRUE(system_group.diags.HasErrors());
  EXPECT_NE(Text(system_group.diags).find("system:"), std::string::npos) << Text(system_group.diags);
  // The creator's own entry exists from the start (bootstrap admin permissions).
  ApplyResult creator = Create("aws_eks_access_entry",
                               With(EntryConfig({}), "principal_arn", S("arn:aws:iam::" + Account() + ":user/sandbox")));
  ASSERT_TRUE(creator.diags.HasErrors());
  EXPECT_NE(Text(creator.diags).find("ResourceInUseException"), std::string::npos) << Text(creator.diags);
}

TEST_P(AwsEksAccessTest, PolicyAssociationCreateReadImportDeleteAndRecovery) {
  Value entry = MustCreate("aws_eks_access_entry", EntryConfig({}));
  ApplyResult created = Create("aws_eks_access_policy_association", AssociationConfig(kViewPolicy, "namespace", {"ml", "default"}));
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), cluster_ + "#" + admin_role_ + "#" + kViewPolicy);
  Value scope = Attr(state, "access_scope").AsList().front();
  EXPECT_EQ(Str(scope, "type"), "namespace");
  EXPECT_EQ(Attr(scope, "namespaces"), Set({"default", "ml"}));
  EXPECT_FALSE(Str(state, "associated_at").empty());
  ExpectReadsBack("aws_eks_access_policy_association", state);

  // The natural key: what an interrupted create made is found, and associating again
  // doubles nothing.
  PlanResult plan = PlanCreate("aws_eks_access_policy_association", AssociationConfig(kViewPolicy, "namespace", {"ml", "default"}));
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_eks_access_policy_association", plan.planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_FALSE(found.gone);
  EXPECT_EQ(Str(found.state, "id"), Str(state, "id"));

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_eks_access_policy_association", Str(state, "id"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(imported.state, state);

  // A bad scope and an unknown policy are EKS's errors.
  ApplyResult no_namespaces = Create("aws_eks_access_policy_association", AssociationConfig(kAdminPolicy, "namespace", {}));
  EXPECT_TRUE(no_namespaces.diags.HasErrors());
  ApplyResult unknown = Create("aws_eks_access_policy_association",
                               AssociationConfig("arn:aws:eks::aws:cluster-access-policy/NoSuchPolicy", "cluster", {}));
  EXPECT_TRUE(unknown.diags.HasErrors());

  MustDelete("aws_eks_access_policy_association", state);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_eks_access_policy_association", state).gone);
  // A cluster-wide scope has no namespaces (EKS answers []): they read back unset, as
  // written, so that a plan right after the apply has nothing to do.
  Value cluster_wide = MustCreate("aws_eks_access_policy_association", AssociationConfig(kAdminPolicy, "cluster", {}));
  EXPECT_TRUE(Attr(Attr(cluster_wide, "access_scope").AsList().front(), "namespaces").IsNull());
  ExpectNoChange("aws_eks_access_policy_association", cluster_wide, AssociationConfig(kAdminPolicy, "cluster", {}));
  // Gone with its entry too.
  MustDelete("aws_eks_access_entry", entry);
  Value admin = Create("aws_eks_access_policy_association", AssociationConfig(kAdminPolicy, "cluster", {})).state;
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_eks_access_policy_association",
                                     With(admin, "id", S(cluster_ + "#" + admin_role_ + "#" + kAdminPolicy)))
                  .gone);
}

STRATA_AWS_BACKENDS(AwsEksAccessTest);

}  // namespace
}  // namespace strata::aws
