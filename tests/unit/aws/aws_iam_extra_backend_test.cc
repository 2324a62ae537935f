// aws_iam_openid_connect_provider and aws_iam_instance_profile against the sandbox and moto (moto_server,
// started by the fixture), reached only through the provider's `endpoints` setting.
// Where moto departs from AWS, the test says so; the provider is never told:
//  - moto has no AddClientIDToOpenIDConnectProvider / RemoveClientIDFromOpenIDConnectProvider:
//    the client-id update is checked only where the endpoint implements them;
//  - the account is always 123456789012.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

const char* kTrustEc2 = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                        R"("Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]})";

Value Strings(std::initializer_list<const char*> items, bool set = true) {
  ValueList out;
  for (const char* s : items) out.push_back(S(s));
  return set ? Value::Set(std::move(out)) : Value::List(std::move(out));
}

class AwsIamExtraTest : public BackendProviderTest {
 protected:
  AwsIamExtraTest() : BackendProviderTest("IAM (OIDC, instance profiles)", {"iam", "sts"}, "us-east-1") {}

  //! An IAM query straight to the backend: "<status> <body or error code>".
  std::string RawIam(const std::string& params) const {
    RawAnswer answer = RawQuery("iam", "2010-05-08", params);
    return std::to_string(answer.status) + " " + (answer.error.empty() ? answer.body : answer.error);
  }

  Value Role(const std::string& name) {
    ApplyResult r = Create("aws_iam_role", Value::Object({{"name", S(name)}, {"assume_role_policy", S(kTrustEc2)}}));
    EXPECT_FALSE(r.diags.HasErrors()) << Text(r.diags);
    return r.state;
  }
};

TEST_P(AwsIamExtraTest, OpenidConnectProviderCreateReadUpdateImportDelete) {
  const std::string url = "https://oidc.eks.us-east-1.amazonaws.com/id/ABCDEF0123456789";
  Value config = Value::Object({{"url", S(url)},
                                {"client_id_list", Strings({"sts.amazonaws.com"})},
                                {"thumbprint_list", Strings({"9e99a48a9960b14926bb7f3b02e22da2b0ab7280"}, false)},
                                {"tags", Tags({{"Name", "irsa"}})}});
  ApplyResult created = Create("aws_iam_openid_connect_provider", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  std::string arn = std::string("arn:aws:iam::") + Account() + ":oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABCDEF0123456789";
  EXPECT_EQ(Str(state, "arn"), arn);
  EXPECT_EQ(Str(state, "id"), arn);
  EXPECT_EQ(Str(state, "url"), url) << "the user's text is kept (IAM answers without https://)";
  EXPECT_EQ(Attr(state, "client_id_list"), Strings({"sts.amazonaws.com"}));
  EXPECT_EQ(Attr(state, "thumbprint_list"), Strings({"9e99a48a9960b14926bb7f3b02e22da2b0ab7280"}, false));
  EXPECT_EQ(Attr(state, "tags"), Tags({{"Name", "irsa"}}));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"Name", "irsa"}, {"Owner", "strata-tests"}}));

  // Refresh sees no drift; a plan from the same config changes nothing.
  ReadResult read = provider_.ReadResource(ctx_, "aws_iam_openid_connect_provider", state);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(read.state, state);
  PlanResult same = PlanUpdate("aws_iam_openid_connect_provider", state, config);
  EXPECT_TRUE(same.requires_replace.empty());
  EXPECT_EQ(same.planned, state);

  // Thumbprints and tags change in place.
  Value changed = Value::Object({{"url", S(url)},
                                 {"client_id_list", Strings({"sts.amazonaws.com"})},
                                 {"thumbprint_list", Strings({"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, false)},
                                 {"tags", Tags({{"Name", "irsa"}, {"Team", "platform"}})}});
  ApplyResult updated = Update("aws_iam_openid_connect_provider", state, changed);
  ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
  EXPECT_EQ(Attr(updated.state, "thumbprint_list"), Strings({"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, false));
  EXPECT_EQ(Attr(updated.state, "tags"), Tags({{"Name", "irsa"}, {"Team", "platform"}}));

  // Client ids change in place where the endpoint implements Add/RemoveClientID (moto does not).
  std::string probe = RawIam("Action=AddClientIDToOpenIDConnectProvider&OpenIDConnectProviderArn=" + arn + "&ClientID=probe");
  if (probe.rfind("200", 0) == 0) {
    RawIam("Action=RemoveClientIDFromOpenIDConnectProvider&OpenIDConnectProviderArn=" + arn + "&ClientID=probe");
    Value ids = With(changed, "client_id_list", Strings({"sts.amazonaws.com", "my-app"}));
    PlanResult plan = PlanUpdate("aws_iam_openid_connect_provider", updated.state, ids);
    EXPECT_TRUE(plan.requires_replace.empty());
    ApplyResult with_ids = provider_.UpdateResource(ctx_, "aws_iam_openid_connect_provider", updated.state, plan.planned);
    ASSERT_FALSE(with_ids.diags.HasErrors()) << Text(with_ids.diags);
    EXPECT_EQ(Attr(with_ids.state, "client_id_list"), Strings({"my-app", "sts.amazonaws.com"}));
    updated = with_ids;
  } else {
    std::cerr << "note: the IAM endpoint lacks AddClientIDToOpenIDConnectProvider (moto): client-id update not exercised\n";
  }

  // A new url is a new provider.
  PlanResult replace = PlanUpdate("aws_iam_openid_connect_provider", updated.state,
                                  With(changed, "url", S("https://token.actions.githubusercontent.com")));
  ASSERT_EQ(replace.requires_replace.size(), 1u);
  EXPECT_EQ(replace.requires_replace[0].ToString(), "url");

  // Import by ARN.
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_iam_openid_connect_provider", arn);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "arn"), arn);
  EXPECT_EQ(Str(imported.state, "url"), url);
  EXPECT_EQ(Attr(imported.state, "tags"), Tags({{"Name", "irsa"}, {"Team", "platform"}}));

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_openid_connect_provider", updated.state).diags.HasErrors());
  read = provider_.ReadResource(ctx_, "aws_iam_openid_connect_provider", updated.state);
  EXPECT_TRUE(read.gone);
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_openid_connect_provider", updated.state).diags.HasErrors());
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_iam_openid_connect_provider", arn).diags.HasErrors());
}

TEST_P(AwsIamExtraTest, InstanceProfileCreateSwapRoleImportDelete) {
  Value role_a = Role("node-a");
  Value role_b = Role("node-b");
  Value config = Value::Object({{"name", S("nodes")}, {"role", S("node-a")}, {"tags", Tags({{"Name", "nodes"}})}});
  ApplyResult created = Create("aws_iam_instance_profile", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), "nodes");
  EXPECT_EQ(Str(state, "arn"), std::string("arn:aws:iam::") + Account() + ":instance-profile/nodes");
  EXPECT_EQ(Str(state, "path"), "/");
  EXPECT_EQ(Str(state, "role"), "node-a");
  EXPECT_FALSE(Str(state, "unique_id").empty());
  EXPECT_FALSE(Str(state, "create_date").empty());
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"Name", "nodes"}, {"Owner", "strata-tests"}}));

  ReadResult read = provider_.ReadResource(ctx_, "aws_iam_instance_profile", state);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(read.state, state);

  // The role changes in place.
  Value swapped = With(config, "role", S("node-b"));
  ApplyResult updated = Update("aws_iam_instance_profile", state, swapped);
  ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
  EXPECT_EQ(Str(updated.state, "role"), "node-b");
  std::string listed = RawIam("Action=ListInstanceProfilesForRole&RoleName=node-a");
  EXPECT_EQ(listed.find("<InstanceProfileName>nodes</InstanceProfileName>"), std::string::npos) << listed;

  // A new name is a new profile.
  PlanResult replace = PlanUpdate("aws_iam_instance_profile", updated.state, With(swapped, "name", S("nodes2")));
  ASSERT_EQ(replace.requires_replace.size(), 1u);

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_iam_instance_profile", "nodes");
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "role"), "node-b");
  EXPECT_EQ(Str(imported.state, "arn"), Str(state, "arn"));

  // Delete takes the role out first (IAM refuses to delete a profile holding one).
  DeleteResult deleted = provider_.DeleteResource(ctx_, "aws_iam_instance_profile", updated.state);
  ASSERT_FALSE(deleted.diags.HasErrors()) << Text(deleted.diags);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_iam_instance_profile", updated.state).gone);
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_instance_profile", updated.state).diags.HasErrors());
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", role_a).diags.HasErrors());
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", role_b).diags.HasErrors());
}

TEST_P(AwsIamExtraTest, InstanceProfileWithoutNameGetsAPrefixedStableOne) {
  ctx_.idempotency_token = "0123456789abcdef0123456789abcdef";
  ApplyResult created = Create("aws_iam_instance_profile", Value::Object({{"name_prefix", S("eks-")}}));
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  EXPECT_EQ(Str(created.state, "name"), "eks-0123456789abcdef0123456789");
  EXPECT_TRUE(Attr(created.state, "role").IsNull());
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_instance_profile", created.state).diags.HasErrors());
}

STRATA_AWS_BACKENDS(AwsIamExtraTest);

}  // namespace
}  // namespace strata::aws
