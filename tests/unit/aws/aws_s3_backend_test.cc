// aws_s3_bucket, aws_s3_bucket_versioning and aws_s3_bucket_public_access_block against the
// sandbox and moto, reached only through the provider's `endpoints` setting (S3 over REST-XML,
// path-style as with any endpoint override, S3's SigV4 with x-amz-content-sha256). Where moto
// departs from AWS, the test says so and skips that part loudly; the provider is never told.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

class AwsS3Test : public BackendProviderTest {
 protected:
  AwsS3Test() : BackendProviderTest("S3", {"s3"}, "us-west-2") {}

  //! PutObject straight to the backend (a key with '/' and a space: S3's path signing).
  void PutObject(const std::string& bucket, const std::string& key, const std::string& body) {
    RawAnswer put = Raw("s3", "PUT", "/" + bucket + "/" + UriEncode(key, true), body, "text/plain");
    ASSERT_EQ(put.status, 200) << put.error;
  }

  std::string suffix_ = UniqueSuffix();
};

TEST_P(AwsS3Test, BucketCreateReadTagsRecoverImportDelete) {
  std::string name = "strata-bucket-" + suffix_;
  Value config = Obj({{"bucket", S(name)}, {"tags", Tags({{"team", "data"}})}});
  ApplyResult created = Create("aws_s3_bucket", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_EQ(Str(state, "id"), name);
  EXPECT_EQ(Str(state, "arn"), "arn:aws:s3:::" + name);
  EXPECT_EQ(Str(state, "region"), "us-west-2");
  EXPECT_EQ(Str(state, "bucket_domain_name"), name + ".s3.amazonaws.com");
  EXPECT_EQ(Str(state, "bucket_regional_domain_name"), name + ".s3.us-west-2.amazonaws.com");
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"team", "data"}, {"Owner", "strata-tests"}}));
  ExpectNoChange("aws_s3_bucket", state, config);

  // The name is the natural key: the account's bucket of that name is the create's.
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_s3_bucket", PlanCreate("aws_s3_bucket", config).planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_EQ(Str(found.state, "id"), name);
  ApplyResult twice = Create("aws_s3_bucket", config);
  ASSERT_TRUE(twice.diags.HasErrors());
  EXPECT_NE(Text(twice.diags).find("BucketAlreadyOwnedByYou"), std::string::npos) << Text(twice.diags);

  Value updated = UpdateInPlace("aws_s3_bucket", state, With(config, "tags", Tags({{"team", "ml"}})));
  EXPECT_EQ(Attr(updated, "tags"), Tags({{"team", "ml"}}));
  ExpectReadsBack("aws_s3_bucket", updated);

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_s3_bucket", name);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "bucket"), name);

  // A bucket holding objects refuses deletion; force_destroy empties it first.
  PutObject(name, "dir/a file.txt", "hello");
  DeleteResult refused = provider_.DeleteResource(ctx_, "aws_s3_bucket", updated);
  ASSERT_TRUE(refused.diags.HasErrors());
  EXPECT_NE(Text(refused.diags).find("BucketNotEmpty"), std::string::npos) << Text(refused.diags);
  MustDelete("aws_s3_bucket", With(updated, "force_destroy", Value::Bool(true)));
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_s3_bucket", updated).gone);
  MustDelete("aws_s3_bucket", updated);  // gone is gone
}

TEST_P(AwsS3Test, BucketPrefixNamesFollowTheToken) {
  ctx_.idempotency_token = "0123456789abcdef0123456789abcdef";
  Value config = Obj({{"bucket_prefix", S("strata-prefix-" + suffix_ + "-")}});
  Value made = MustCreate("aws_s3_bucket", config);
  EXPECT_EQ(Str(made, "bucket"), "strata-prefix-" + suffix_ + "-0123456789abcdef0123456789");
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_s3_bucket", PlanCreate("aws_s3_bucket", config).planned);
  EXPECT_EQ(Str(found.state, "id"), Str(made, "id"));
  ctx_.idempotency_token.clear();
  MustDelete("aws_s3_bucket", made);
}

TEST_P(AwsS3Test, VersioningAndPublicAccessBlock) {
  std::string name = "strata-config-" + suffix_;
  Value bucket = MustCreate("aws_s3_bucket", Obj({{"bucket", S(name)}, {"force_destroy", Value::Bool(true)}}));
  Value enabled = Obj({{"bucket", S(name)}, {"versioning_configuration", Value::List({Obj({{"status", S("Enabled")}})})}});
  ApplyResult versioning = Create("aws_s3_bucket_versioning", enabled);
  ASSERT_FALSE(versioning.diags.HasErrors()) << Text(versioning.diags);
  EXPECT_EQ(Str(versioning.state, "id"), name);
  ExpectReadsBack("aws_s3_bucket_versioning", versioning.state);
  Value suspended = UpdateInPlace("aws_s3_bucket_versioning", versioning.state,
                                  With(enabled, "versioning_configuration", Value::List({Obj({{"status", S("Suspended")}})})));
  EXPECT_EQ(Str(attrs::FirstBlock(suspended, "versioning_configuration"), "status"), "Suspended");
  MustDelete("aws_s3_bucket_versioning", suspended);

  Value block_config = Obj({{"bucket", S(name)}, {"block_public_acls", Value::Bool(true)}, {"restrict_public_buckets", Value::Bool(true)}});
  ApplyResult block = Create("aws_s3_bucket_public_access_block", block_config);
  ASSERT_FALSE(block.diags.HasErrors()) << Text(block.diags);
  EXPECT_EQ(Attr(block.state, "block_public_acls"), Value::Bool(true));
  EXPECT_EQ(Attr(block.state, "ignore_public_acls"), Value::Bool(false));
  ExpectNoChange("aws_s3_bucket_public_access_block", block.state, block_config);
  Value all = UpdateInPlace("aws_s3_bucket_public_access_block", block.state,
                            With(With(block_config, "ignore_public_acls", Value::Bool(true)), "block_public_policy", Value::Bool(true)));
  EXPECT_EQ(Attr(all, "block_public_policy"), Value::Bool(true));
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_s3_bucket_public_access_block", name);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Attr(imported.state, "ignore_public_acls"), Value::Bool(true));
  MustDelete("aws_s3_bucket_public_access_block", all);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_s3_bucket_public_access_block", all).gone);

  // force_destroy removes a versioned bucket's objects too.
  PutObject(name, "k1", "one");
  PutObject(name, "k1", "two");
  MustDelete("aws_s3_bucket", bucket);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_s3_bucket", bucket).gone);
}

STRATA_AWS_BACKENDS(AwsS3Test);

}  // namespace
}  // namespace strata::aws
