// The aws provider's IAM types (aws_iam_role, aws_iam_policy,
// aws_iam_role_policy_attachment) against the sandbox and moto (moto_server, started by the fixture on
// 127.0.0.1), reached only through the provider's `endpoints` setting ("iam").
// Where moto departs from AWS, the test says so; the provider is never told:
//  - moto returns documents exactly as sent (AWS may reorder or reformat them), so the
//    reformatting case is simulated by reading with a textually different prior; it also
//    returns policy versions' documents without AWS's URL encoding (both are handled);
//  - the account is always 123456789012.

#include "backend_provider_test.h"
#include "providers/aws/http/url.h"
#include "providers/aws/services/iam/iam_api.h"

namespace strata::aws {
namespace {

using namespace backendtest;

const char* kTrustEc2 = R"({
  "Version": "2012-10-17",
  "Statement": [{"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"},
                 "Action": "sts:AssumeRole"}]
})";
const char* kTrustLambda = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                           R"("Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]})";

std::string ReadPolicy(const std::string& bucket) {
  return R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject"],)"
         R"( "Resource": "arn:aws:s3:::)" + bucket + R"(/*"}]})";
}

class AwsIamTest : public BackendProviderTest {
 protected:
  // IAM is global: whatever the region, it is signed for us-east-1.
  AwsIamTest() : BackendProviderTest("IAM", {"iam", "sts"}, "eu-west-1") {}

  Value RoleConfig(const std::string& name, const std::string& trust, const Value& tags) {
    return Value::Object({{"name", S(name)},
                          {"assume_role_policy", S(trust)},
                          {"description", S("strata test role")},
                          {"tags", tags}});
  }

  //! An IAM query straight to the backend, to look at what the provider left behind.
  std::string RawIam(const std::string& params) const {
    RawAnswer answer = RawQuery("iam", "2010-05-08", params);
    return answer.error.empty() ? answer.body : answer.error;
  }
  static int Count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

};

TEST_P(AwsIamTest, RoleCreateReadUpdateDelete) {
  ApplyResult role = Create("aws_iam_role", RoleConfig("app", kTrustEc2, Tags({{"Name", "app"}})));
  ASSERT_FALSE(role.diags.HasErrors()) << Text(role.diags);
  const Value& state = role.state;
  EXPECT_EQ(Str(state, "id"), "app");
  EXPECT_EQ(Str(state, "name"), "app");
  EXPECT_EQ(Str(state, "arn"), std::string("arn:aws:iam::") + Account() + ":role/app");
  EXPECT_FALSE(Str(state, "unique_id").empty());
  EXPECT_FALSE(Str(state, "create_date").empty());
  EXPECT_EQ(Str(state, "path"), "/");
  EXPECT_EQ(Attr(state, "max_session_duration"), Value::Number(3600));
  EXPECT_EQ(Str(state, "description"), "strata test role");
  EXPECT_EQ(Str(state, "assume_role_policy"), kTrustEc2);
  EXPECT_EQ(Attr(state, "tags"), Tags({{"Name", "app"}}));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"Name", "app"}, {"Owner", "strata-tests"}}));

  ReadResult read = provider_.ReadResource(ctx_, "aws_iam_role", state);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(read.state, state);

  Value config = Value::Object({{"name", S("app")},
                                {"assume_role_policy", S(kTrustLambda)},
                                {"description", S("changed")},
                                {"max_session_duration", Value::Number(7200)},
                                {"tags", Tags({{"Tier", "core"}})}});
  ApplyResult updated = Update("aws_iam_role", state, config);
  ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
  EXPECT_EQ(Str(updated.state, "unique_id"), Str(state, "unique_id"));
  EXPECT_EQ(Str(updated.state, "description"), "changed");
  EXPECT_EQ(Attr(updated.state, "max_session_duration"), Value::Number(7200));
  EXPECT_EQ(Str(updated.state, "assume_role_policy"), kTrustLambda);
  EXPECT_EQ(Attr(updated.state, "tags"), Tags({{"Tier", "core"}}));
  EXPECT_EQ(Attr(updated.state, "tags_all"), Tags({{"Owner", "strata-tests"}, {"Tier", "core"}}));
  read = provider_.ReadResource(ctx_, "aws_iam_role", updated.state);
  EXPECT_EQ(read.state, updated.state);
  // What IAM holds, not only what the provider says.
  std::string raw = RawIam("Action=GetRole&RoleName=app");
  EXPECT_NE(raw.find("lambda.amazonaws.com"), std::string::npos) << raw;
  EXPECT_EQ(raw.find("<Key>Name</Key>"), std::string::npos) << raw;

  // A second role of the same name: the diagnostic names the call, code and request id.
  ApplyResult twice = Create("aws_iam_role", RoleConfig("app", kTrustEc2, Value()));
  ASSERT_TRUE(twice.diags.HasErrors());
  std::string text = Text(twice.diags);
  EXPECT_NE(text.find("CreateRole"), std::string::npos) << text;
  EXPECT_NE(text.find("EntityAlreadyExists"), std::string::npos) << text;
  EXPECT_NE(text.find("Request id: "), std::string::npos) << text;
  EXPECT_EQ(text.find("Request id: none"), std::string::npos) << text;

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", updated.state).diags.HasErrors());
  read = provider_.ReadResource(ctx_, "aws_iam_role", updated.state);
  EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_TRUE(read.gone);
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", updated.state).diags.HasErrors());
}

TEST_P(AwsIamTest, RoleReadBackShowsNoDiffAgainstThePlan) {
  // Formatted by hand, with a one-element Action list IAM may return as a plain string.
  std::string trust = R"({ "Version": "2012-10-17",
    "Statement": [ { "Action": ["sts:AssumeRole"], "Effect": "Allow",
                     "Principal": { "Service": ["ecs-tasks.amazonaws.com"] } } ] })";
  Value config = RoleConfig("nodiff", trust, Value());
  PlanResult plan = PlanCreate("aws_iam_role", config);
  ApplyResult role = provider_.CreateResource(ctx_, "aws_iam_role", plan.planned);
  ASSERT_FALSE(role.diags.HasErrors()) << Text(role.diags);
  for (const auto& [name, planned] : plan.planned.AsMap()) {
    if (planned.IsKnown()) {
      EXPECT_EQ(Attr(role.state, name), planned) << name;
    }
  }
  // Re-planning the same config against the read-back state changes nothing.
  ReadResult read = provider_.ReadResource(ctx_, "aws_iam_role", role.state);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  PlanResult again = PlanUpdate("aws_iam_role", read.state, config);
  EXPECT_TRUE(again.requires_replace.empty());
  EXPECT_EQ(again.planned, read.state);

  // IAM answering with a reformatted document (AWS does; moto echoes): the user's text
  // stays while the meaning is the same, the remote text wins once it differs.
  Value compact = S(R"({"Version":"2012-10-17","Statement":{"Effect":"Allow",)"
                    R"("Principal":{"Service":"ecs-tasks.amazonaws.com"},"Action":"sts:AssumeRole"}})");
  read = provider_.ReadResource(ctx_, "aws_iam_role",
                                Value::Object({{"id", S("nodiff")}, {"assume_role_policy", compact}}));
  EXPECT_EQ(Attr(read.state, "assume_role_policy"), compact);
  read = provider_.ReadResource(ctx_, "aws_iam_role",
                                Value::Object({{"id", S("nodiff")}, {"assume_role_policy", S(kTrustEc2)}}));
  EXPECT_TRUE(PolicyEquivalent(Str(read.state, "assume_role_policy"), trust));

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", role.state).diags.HasErrors());
}

TEST_P(AwsIamTest, PolicyVersionsAttachmentAndCleanup) {
  ApplyResult role = Create("aws_iam_role", RoleConfig("reader", kTrustEc2, Value()));
  ASSERT_FALSE(role.diags.HasErrors()) << Text(role.diags);

  Value config = Value::Object({{"name", S("read-bucket")},
                                {"description", S("reads a bucket")},
                                {"policy", S(ReadPolicy("one"))},
                                {"tags", Tags({{"Name", "read-bucket"}})}});
  ApplyResult policy = Create("aws_iam_policy", config);
  ASSERT_FALSE(policy.diags.HasErrors()) << Text(policy.diags);
  std::string arn = Str(policy.state, "arn");
  EXPECT_EQ(arn, std::string("arn:aws:iam::") + Account() + ":policy/read-bucket");
  EXPECT_EQ(Str(policy.state, "id"), arn);
  EXPECT_FALSE(Str(policy.state, "policy_id").empty());
  EXPECT_EQ(Str(policy.state, "path"), "/");
  EXPECT_EQ(Str(policy.state, "description"), "reads a bucket");
  EXPECT_EQ(Str(policy.state, "policy"), ReadPolicy("one"));
  EXPECT_EQ(Attr(policy.state, "tags_all"), Tags({{"Name", "read-bucket"}, {"Owner", "strata-tests"}}));
  ReadResult read = provider_.ReadResource(ctx_, "aws_iam_policy", policy.state);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_EQ(read.state, policy.state);

  // Two updates: two new default versions.
  Value state = policy.state;
  for (const char* bucket : {"two", "three"}) {
    ApplyResult updated = Update("aws_iam_policy", state,
                                 attrs::With(config, "policy", S(ReadPolicy(bucket))));
    ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
    EXPECT_EQ(Str(updated.state, "policy"), ReadPolicy(bucket));
    EXPECT_EQ(Str(updated.state, "arn"), arn);
    state = updated.state;
  }
  std::string versions = RawIam("Action=ListPolicyVersions&PolicyArn=" + UriEncode(arn));
  EXPECT_EQ(Count(versions, "<VersionId>"), 3) << versions;
  EXPECT_NE(versions.find("<VersionId>v3</VersionId>"), std::string::npos) << versions;
  // Beyond IAM's 5 versions the oldest non-default one makes room.
  for (const char* bucket : {"four", "five", "six", "seven"}) {
    ApplyResult updated = Update("aws_iam_policy", state,
                                 attrs::With(config, "policy", S(ReadPolicy(bucket))));
    ASSERT_FALSE(updated.diags.HasErrors()) << Text(updated.diags);
    state = updated.state;
  }
  versions = RawIam("Action=ListPolicyVersions&PolicyArn=" + UriEncode(arn));
  EXPECT_EQ(Count(versions, "<VersionId>"), 5) << versions;
  EXPECT_EQ(versions.find("<VersionId>v1</VersionId>"), std::string::npos) << versions;
  EXPECT_EQ(Str(state, "policy"), ReadPolicy("seven"));

  // Attach, read, import, detach.
  ApplyResult attachment = Create("aws_iam_role_policy_attachment",
                                  Value::Object({{"role", S("reader")}, {"policy_arn", S(arn)}}));
  ASSERT_FALSE(attachment.diags.HasErrors()) << Text(attachment.diags);
  EXPECT_EQ(Str(attachment.state, "id"), "reader/" + arn);
  read = provider_.ReadResource(ctx_, "aws_iam_role_policy_attachment", attachment.state);
  ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_FALSE(read.gone);
  EXPECT_EQ(read.state, attachment.state);
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_iam_role_policy_attachment", "reader/" + arn);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(imported.state, attachment.state);
  EXPECT_NE(RawIam("Action=ListAttachedRolePolicies&RoleName=reader").find(arn), std::string::npos);

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role_policy_attachment", attachment.state)
                   .diags.HasErrors());
  read = provider_.ReadResource(ctx_, "aws_iam_role_policy_attachment", attachment.state);
  EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_TRUE(read.gone);

  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_policy", state).diags.HasErrors());
  read = provider_.ReadResource(ctx_, "aws_iam_policy", state);
  EXPECT_FALSE(read.diags.HasErrors()) << Text(read.diags);
  EXPECT_TRUE(read.gone);
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", role.state).diags.HasErrors());
  // The attachment of a deleted role is gone too.
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_iam_role_policy_attachment", attachment.state).gone);
}

// Refresh in batches: the attachments of one role are read with one ListAttachedRolePolicies.
TEST_P(AwsIamTest, AttachmentsReadTogetherOneListPerRole) {
  std::string suffix = UniqueSuffix();
  std::vector<std::string> arns;
  std::vector<Value> policies;
  for (const char* bucket : {"b1", "b2", "b3"}) {
    policies.push_back(MustCreate("aws_iam_policy", Value::Object({{"name", S(std::string("batch-") + bucket + "-" + suffix)},
                                                                   {"policy", S(ReadPolicy(bucket))}})));
    arns.push_back(Str(policies.back(), "arn"));
  }
  Value first = MustCreate("aws_iam_role", RoleConfig("batch-a-" + suffix, kTrustEc2, Tags({})));
  Value second = MustCreate("aws_iam_role", RoleConfig("batch-b-" + suffix, kTrustEc2, Tags({})));
  auto attach = [&](const Value& role, const std::string& arn) {
    return MustCreate("aws_iam_role_policy_attachment", Value::Object({{"role", Attr(role, "name")}, {"policy_arn", S(arn)}}));
  };
  Value a1 = attach(first, arns[0]), a2 = attach(first, arns[1]), a3 = attach(first, arns[2]), b1 = attach(second, arns[0]);
  MustDelete("aws_iam_role_policy_attachment", a2);
  Value no_role = attrs::With(attrs::With(a1, "role", S("no-such-role-" + suffix)), "id", S("no-such-role-" + suffix + "/" + arns[0]));
  std::vector<Value> priors = {a1, a2, b1, a3, no_role};

  uint64_t before = IsMoto() ? 0 : sandbox_->stats().calls;
  std::vector<ReadResult> read = provider_.ReadResources(ctx_, "aws_iam_role_policy_attachment", priors);
  if (!IsMoto()) {
    EXPECT_EQ(sandbox_->stats().calls - before, 3u) << "one list for each of the three roles";
  }
  ASSERT_EQ(read.size(), priors.size());
  for (size_t i = 0; i < priors.size(); ++i) {
    ReadResult single = provider_.ReadResource(ctx_, "aws_iam_role_policy_attachment", priors[i]);
    EXPECT_FALSE(read[i].diags.HasErrors()) << Text(read[i].diags);
    EXPECT_EQ(read[i].gone, single.gone) << i;
    EXPECT_EQ(read[i].state, single.state) << i;
  }
  EXPECT_EQ(read[0].state, a1);
  EXPECT_TRUE(read[1].gone) << "detached outside";
  EXPECT_EQ(read[2].state, b1);
  EXPECT_TRUE(read[4].gone) << "its role does not exist";

  for (const Value& a : {a1, a3, b1}) MustDelete("aws_iam_role_policy_attachment", a);
  MustDelete("aws_iam_role", first);
  MustDelete("aws_iam_role", second);
  for (const Value& p : policies) MustDelete("aws_iam_policy", p);
}

TEST_P(AwsIamTest, ImportingARoleByName) {
  ApplyResult role = Create("aws_iam_role", RoleConfig("imported", kTrustEc2, Tags({{"Name", "imp"}})));
  ASSERT_FALSE(role.diags.HasErrors()) << Text(role.diags);
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_iam_role", "imported");
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(imported.state, role.state);

  ApplyResult missing = provider_.ImportResource(ctx_, "aws_iam_role", "no-such-role");
  EXPECT_TRUE(missing.diags.HasErrors());
  EXPECT_FALSE(provider_.DeleteResource(ctx_, "aws_iam_role", role.state).diags.HasErrors());
}

// Without moto.
TEST(AwsIamSchemaTest, SchemaHasTerraformsNames) {
  ProviderSchema schema = AwsProvider(std::make_shared<MapEnvironment>()).Schema();
  const ResourceSchema* role = schema.Find(ResourceMode::Managed, "aws_iam_role");
  ASSERT_NE(role, nullptr);
  EXPECT_TRUE(role->attributes.at("name").force_new);
  EXPECT_TRUE(role->attributes.at("path").force_new);
  EXPECT_FALSE(role->attributes.at("assume_role_policy").force_new);
  EXPECT_TRUE(role->attributes.at("unique_id").computed);
  const ResourceSchema* policy = schema.Find(ResourceMode::Managed, "aws_iam_policy");
  ASSERT_NE(policy, nullptr);
  EXPECT_TRUE(policy->attributes.at("description").force_new);
  EXPECT_TRUE(policy->attributes.at("policy_id").computed);
  const ResourceSchema* attachment = schema.Find(ResourceMode::Managed, "aws_iam_role_policy_attachment");
  ASSERT_NE(attachment, nullptr);
  EXPECT_TRUE(attachment->attributes.at("role").force_new);
  EXPECT_TRUE(attachment->attributes.at("policy_arn").force_new);
}

TEST(AwsIamSchemaTest, PolicyDocumentsCompareAsJson) {
  EXPECT_TRUE(PolicyEquivalent(R"({"a": ["x"], "b": 1})", R"({"b":1,"a":"x"})"));
  EXPECT_TRUE(PolicyEquivalent(R"({"a": ["x", "y"]})", R"({"a":["y","x"]})"));
  EXPECT_FALSE(PolicyEquivalent(R"({"a": ["x", "y"]})", R"({"a":["x"]})"));
  EXPECT_EQ(DecodePolicyDocument("%7B%22a%22%3A%201%7D"), R"({"a": 1})");
  EXPECT_EQ(DecodePolicyDocument(R"({"a": "50%"})"), R"({"a": "50%"})");
  EXPECT_EQ(PolicyForState("%7B%22a%22%3A1%7D", S(R"({ "a" : 1 })")), S(R"({ "a" : 1 })"));
  EXPECT_EQ(PolicyForState("%7B%22a%22%3A2%7D", S(R"({ "a" : 1 })")), S(R"({"a":2})"));
}

STRATA_AWS_BACKENDS(AwsIamTest);

}  // namespace
}  // namespace strata::aws
