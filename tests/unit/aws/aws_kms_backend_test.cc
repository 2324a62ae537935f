// aws_kms_key and aws_kms_alias against the sandbox and moto, reached only through the
// provider's `endpoints` setting (KMS over awsJson 1.1). Where moto departs from AWS, the
// test says so and skips that part loudly; the provider is never told.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

class AwsKmsTest : public BackendProviderTest {
 protected:
  AwsKmsTest() : BackendProviderTest("KMS", {"kms"}, "us-west-2") {}


  std::string suffix_ = UniqueSuffix();
};

TEST_P(AwsKmsTest, KeyCreateReadUpdateImportScheduleDeletion) {
  Value config = Obj({{"description", S("EKS secrets " + suffix_)},
                      {"enable_key_rotation", Value::Bool(true)},
                      {"deletion_window_in_days", N(7)},
                      {"tags", Tags({{"team", "ml"}})}});
  ctx_.idempotency_token = "token-key-" + suffix_;
  ApplyResult created = Create("aws_kms_key", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), Str(state, "key_id"));
  EXPECT_EQ(Str(state, "arn"), "arn:aws:kms:us-west-2:" + Account() + ":key/" + Str(state, "key_id"));
  EXPECT_EQ(Str(state, "key_usage"), "ENCRYPT_DECRYPT");
  EXPECT_EQ(Str(state, "customer_master_key_spec"), "SYMMETRIC_DEFAULT");
  EXPECT_EQ(Attr(state, "enable_key_rotation"), Value::Bool(true));
  EXPECT_EQ(Attr(state, "is_enabled"), Value::Bool(true));
  EXPECT_NE(Str(state, "policy").find("kms:*"), std::string::npos) << Str(state, "policy");
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"team", "ml"}, {"Owner", "strata-tests"}}));
  ExpectReadsBack("aws_kms_key", state);

  // Recovery finds the key by this create's token tag (CreateKey takes no client token).
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_kms_key", PlanCreate("aws_kms_key", config).planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_FALSE(found.gone);
  EXPECT_EQ(Str(found.state, "id"), Str(state, "id"));
  ctx_.idempotency_token = "token-never-used";
  EXPECT_TRUE(provider_.FindInterruptedCreate(ctx_, "aws_kms_key", PlanCreate("aws_kms_key", config).planned).gone);
  ctx_.idempotency_token.clear();

  Value changed = With(config, "description", S("EKS secrets, rotated " + suffix_));
  changed = With(changed, "enable_key_rotation", Value::Bool(false));
  changed = With(changed, "tags", Tags({{"team", "platform"}}));
  Value updated = UpdateInPlace("aws_kms_key", state, changed);
  EXPECT_EQ(Str(updated, "description"), "EKS secrets, rotated " + suffix_);
  EXPECT_EQ(Attr(updated, "enable_key_rotation"), Value::Bool(false));
  EXPECT_EQ(Attr(updated, "tags"), Tags({{"team", "platform"}}));
  ExpectReadsBack("aws_kms_key", updated);

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_kms_key", Str(state, "id"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "description"), "EKS secrets, rotated " + suffix_);

  // Delete schedules the deletion; a key pending deletion reads as gone.
  MustDelete("aws_kms_key", updated);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_kms_key", updated).gone);
  MustDelete("aws_kms_key", updated);  // already pending: nothing to do
  EXPECT_TRUE(provider_.ValidateResourceConfig(ctx_, ResourceMode::Managed, "aws_kms_key",
                                               Obj({{"deletion_window_in_days", N(3)}}))
                  .HasErrors());
}

TEST_P(AwsKmsTest, AliasCreateRetargetImportDelete) {
  Value first = MustCreate("aws_kms_key", Obj({{"description", S("first " + suffix_)}}));
  Value second = MustCreate("aws_kms_key", Obj({{"description", S("second " + suffix_)}}));
  std::string name = "alias/eks-secrets-" + suffix_;
  Value config = Obj({{"name", S(name)}, {"target_key_id", Attr(first, "key_id")}});
  ApplyResult created = Create("aws_kms_alias", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  EXPECT_EQ(Str(created.state, "id"), name);
  EXPECT_EQ(Str(created.state, "arn"), "arn:aws:kms:us-west-2:" + Account() + ":" + name);
  EXPECT_EQ(Str(created.state, "target_key_arn"), Str(first, "arn"));
  ExpectReadsBack("aws_kms_alias", created.state);
  // The natural key: found when it points at the planned key, not taken over otherwise.
  EXPECT_FALSE(provider_.FindInterruptedCreate(ctx_, "aws_kms_alias", PlanCreate("aws_kms_alias", config).planned).gone);
  ReadResult elsewhere = provider_.FindInterruptedCreate(
      ctx_, "aws_kms_alias", PlanCreate("aws_kms_alias", With(config, "target_key_id", Attr(second, "key_id"))).planned);
  EXPECT_TRUE(elsewhere.gone);
  EXPECT_NE(Text(elsewhere.diags).find("points at another key"), std::string::npos) << Text(elsewhere.diags);

  Value moved = UpdateInPlace("aws_kms_alias", created.state, With(config, "target_key_id", Attr(second, "arn")));
  EXPECT_EQ(Str(moved, "target_key_id"), Str(second, "arn"));  // as written: the ARN
  EXPECT_EQ(Str(moved, "target_key_arn"), Str(second, "arn"));
  ExpectReadsBack("aws_kms_alias", moved);
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_kms_alias", name);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "target_key_arn"), Str(second, "arn"));

  ApplyResult reserved = Create("aws_kms_alias", Obj({{"name", S("alias/aws/ebs")}, {"target_key_id", Attr(first, "key_id")}}));
  EXPECT_TRUE(reserved.diags.HasErrors());
  MustDelete("aws_kms_alias", moved);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_kms_alias", moved).gone);
  MustDelete("aws_kms_key", first);
  MustDelete("aws_kms_key", second);
}

STRATA_AWS_BACKENDS(AwsKmsTest);

}  // namespace
}  // namespace strata::aws
