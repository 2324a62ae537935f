// aws_secretsmanager_secret, aws_secretsmanager_secret_version and data
// "aws_secretsmanager_secret_version" against the sandbox and moto, reached only through the
// provider's `endpoints` setting (Secrets Manager over awsJson 1.1). Where moto departs from
// AWS, the test says so and skips that part loudly; the provider is never told.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

class AwsSecretsManagerTest : public BackendProviderTest {
 protected:
  AwsSecretsManagerTest() : BackendProviderTest("Secrets Manager", {"secretsmanager"}, "us-west-2") {}

  RawAnswer Call(const std::string& action, const std::string& body) const {
    return RawJson("secretsmanager", "secretsmanager." + action, body);
  }

  std::string suffix_ = UniqueSuffix();
};

TEST_P(AwsSecretsManagerTest, SecretCreateReadUpdateImportDelete) {
  std::string name = "google-oauth-" + suffix_;
  Value config = Obj({{"name", S(name)},
                      {"description", S("Google client secret")},
                      {"recovery_window_in_days", N(7)},
                      {"tags", Tags({{"team", "identity"}})}});
  ctx_.idempotency_token = "secret-token-" + suffix_ + "-0123456789abcdef0123";
  ApplyResult created = Create("aws_secretsmanager_secret", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), Str(state, "arn"));
  EXPECT_EQ(Str(state, "arn").rfind("arn:aws:secretsmanager:us-west-2:" + Account() + ":secret:" + name + "-", 0), 0u)
      << Str(state, "arn");
  EXPECT_EQ(Str(state, "name"), name);
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"team", "identity"}, {"Owner", "strata-tests"}}));  // no token tag
  ExpectNoChange("aws_secretsmanager_secret", state, config);

  // Recovery finds the secret by its name and this create's token tag; another create's
  // token finds nothing of its own (the secret is someone else's: left alone).
  Value planned = PlanCreate("aws_secretsmanager_secret", config).planned;
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_secretsmanager_secret", planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_EQ(Str(found.state, "id"), Str(state, "id"));
  ctx_.idempotency_token = "secret-token-never-used-0123456789abcdef";
  ReadResult other = provider_.FindInterruptedCreate(ctx_, "aws_secretsmanager_secret", planned);
  EXPECT_TRUE(other.gone);
  EXPECT_NE(Text(other.diags).find("strata import"), std::string::npos) << Text(other.diags);
  // Creating it again is refused, naming import.
  ApplyResult twice = Create("aws_secretsmanager_secret", config);
  EXPECT_TRUE(twice.diags.HasErrors());
  EXPECT_NE(Text(twice.diags).find("already exists"), std::string::npos) << Text(twice.diags);
  ctx_.idempotency_token.clear();

  Value changed = With(config, "description", S("Google OAuth client secret"));
  changed = With(changed, "tags", Tags({{"team", "platform"}}));
  Value updated = UpdateInPlace("aws_secretsmanager_secret", state, changed);
  EXPECT_EQ(Str(updated, "description"), "Google OAuth client secret");
  EXPECT_EQ(Attr(updated, "tags"), Tags({{"team", "platform"}}));
  ExpectNoChange("aws_secretsmanager_secret", updated, changed);

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_secretsmanager_secret", Str(state, "arn"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "name"), name);
  EXPECT_EQ(Str(imported.state, "description"), "Google OAuth client secret");

  // Delete schedules the deletion: the secret reads as gone and refuses its value, until
  // restored.
  MustDelete("aws_secretsmanager_secret", updated);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_secretsmanager_secret", updated).gone);
  RawAnswer value = Call("GetSecretValue", R"({"SecretId":")" + name + R"("})");
  EXPECT_EQ(value.error, "InvalidRequestException") << value.status << " " << value.body;
  MustDelete("aws_secretsmanager_secret", updated);  // already scheduled: nothing to do
  EXPECT_EQ(Call("RestoreSecret", R"({"SecretId":")" + name + R"("})").status, 200);
  EXPECT_FALSE(provider_.ReadResource(ctx_, "aws_secretsmanager_secret", updated).gone);

  // recovery_window_in_days = 0 deletes at once: the name is free again.
  Value now = With(updated, "recovery_window_in_days", N(0));
  MustDelete("aws_secretsmanager_secret", now);
  EXPECT_EQ(Call("DescribeSecret", R"({"SecretId":")" + name + R"("})").error, "ResourceNotFoundException");
  Value again = MustCreate("aws_secretsmanager_secret", Obj({{"name", S(name)}, {"recovery_window_in_days", N(0)}}));
  MustDelete("aws_secretsmanager_secret", again);
  EXPECT_TRUE(provider_.ValidateResourceConfig(ctx_, ResourceMode::Managed, "aws_secretsmanager_secret",
                                               Obj({{"recovery_window_in_days", N(3)}}))
                  .HasErrors());
}

TEST_P(AwsSecretsManagerTest, VersionsStagesAndDataSource) {
  Value secret = MustCreate("aws_secretsmanager_secret",
                            Obj({{"name_prefix", S("cognito-" + suffix_ + "-")}, {"recovery_window_in_days", N(0)}}));
  EXPECT_EQ(Str(secret, "name").rfind("cognito-" + suffix_ + "-", 0), 0u);
  Value config = Obj({{"secret_id", Attr(secret, "id")}, {"secret_string", S("first-client-secret")}});
  std::string token = "0123456789abcdef0123456789abcd" + std::string(suffix_.size() < 2 ? 2 - suffix_.size() : 0, '0') + suffix_;
  ctx_.idempotency_token = token;
  ApplyResult first = Create("aws_secretsmanager_secret_version", config);
  ASSERT_FALSE(first.diags.HasErrors()) << Text(first.diags);
  EXPECT_EQ(Str(first.state, "version_id"), token);  // the client token names the version
  EXPECT_EQ(Str(first.state, "id"), Str(secret, "arn") + "|" + token);
  EXPECT_EQ(Attr(first.state, "version_stages"), Value::Set({S("AWSCURRENT")}));
  EXPECT_TRUE(Attr(first.state, "secret_string").IsSensitive());
  ExpectNoChange("aws_secretsmanager_secret_version", first.state, config);
  // The create sent again with the same token (an interrupted create) makes nothing new.
  ApplyResult resent = Create("aws_secretsmanager_secret_version", config);
  ASSERT_FALSE(resent.diags.HasErrors()) << Text(resent.diags);
  EXPECT_EQ(Str(resent.state, "id"), Str(first.state, "id"));
  ctx_.idempotency_token.clear();

  // A new value is a new version (replacement), which takes AWSCURRENT.
  PlanResult replace = PlanUpdate("aws_secretsmanager_secret_version", first.state,
                                  With(config, "secret_string", S("second-client-secret")));
  EXPECT_FALSE(replace.requires_replace.empty());
  Value second = MustCreate("aws_secretsmanager_secret_version", With(config, "secret_string", S("second-client-secret")));
  EXPECT_NE(Str(second, "version_id"), token);
  ReadResult old = provider_.ReadResource(ctx_, "aws_secretsmanager_secret_version", first.state);
  ASSERT_FALSE(old.diags.HasErrors()) << Text(old.diags);
  EXPECT_EQ(Attr(old.state, "version_stages"), Value::Set({S("AWSPREVIOUS")}));

  // The data source: AWSCURRENT by default, a version by id, the value sensitive.
  ReadResult current = provider_.ReadDataSource(ctx_, "aws_secretsmanager_secret_version",
                                                Obj({{"secret_id", Attr(secret, "name")}}));
  ASSERT_FALSE(current.diags.HasErrors()) << Text(current.diags);
  EXPECT_EQ(Str(current.state, "version_id"), Str(second, "version_id"));
  EXPECT_EQ(Attr(current.state, "secret_string").AsString(), "second-client-secret");
  EXPECT_TRUE(Attr(current.state, "secret_string").IsSensitive());
  EXPECT_EQ(Str(current.state, "arn"), Str(secret, "arn"));
  ReadResult by_id = provider_.ReadDataSource(ctx_, "aws_secretsmanager_secret_version",
                                              Obj({{"secret_id", Attr(secret, "arn")}, {"version_id", S(token)}}));
  ASSERT_FALSE(by_id.diags.HasErrors()) << Text(by_id.diags);
  EXPECT_EQ(Attr(by_id.state, "secret_string").AsString(), "first-client-secret");
  ReadResult missing = provider_.ReadDataSource(ctx_, "aws_secretsmanager_secret_version",
                                                Obj({{"secret_id", S("no-such-secret-" + suffix_)}}));
  EXPECT_TRUE(missing.diags.HasErrors());

  // Labels move in place: AWSCURRENT back to the first version, plus one of our own.
  Value relabelled = UpdateInPlace("aws_secretsmanager_secret_version", old.state,
                                   With(old.state, "version_stages", Value::Set({S("AWSCURRENT"), S("blue")})));
  EXPECT_EQ(Attr(relabelled, "version_stages"), Value::Set({S("AWSCURRENT"), S("blue")}));
  ReadResult demoted = provider_.ReadResource(ctx_, "aws_secretsmanager_secret_version", second);
  ASSERT_FALSE(demoted.diags.HasErrors()) << Text(demoted.diags);
  EXPECT_EQ(Attr(demoted.state, "version_stages"), Value::Set({S("AWSPREVIOUS")}));

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_secretsmanager_secret_version", Str(first.state, "id"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Attr(imported.state, "secret_string").AsString(), "first-client-secret");

  // Delete takes the labels off (AWSCURRENT stays: AWS only moves it); the secret goes last.
  MustDelete("aws_secretsmanager_secret_version", demoted.state);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_secretsmanager_secret_version", demoted.state).gone);
  MustDelete("aws_secretsmanager_secret_version", relabelled);
  MustDelete("aws_secretsmanager_secret", secret);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_secretsmanager_secret_version", relabelled).gone);
}

STRATA_AWS_BACKENDS(AwsSecretsManagerTest);

}  // namespace
}  // namespace strata::aws
