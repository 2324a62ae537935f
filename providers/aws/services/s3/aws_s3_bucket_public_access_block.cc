// aws_s3_bucket_public_access_block: a bucket's four public access switches
// (PutPublicAccessBlock / GetPublicAccessBlock / DeletePublicAccessBlock), with Terraform's
// attributes; the id is the bucket name, which is the natural key (putting the configuration
// again doubles nothing). Every switch changes in place.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/s3/s3_api.h"
#include "providers/aws/services/s3/s3_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

//! Terraform's attribute and S3's element of each switch.
constexpr std::pair<const char*, const char*> kSwitches[] = {{"block_public_acls", "BlockPublicAcls"},
                                                             {"block_public_policy", "BlockPublicPolicy"},
                                                             {"ignore_public_acls", "IgnorePublicAcls"},
                                                             {"restrict_public_buckets", "RestrictPublicBuckets"}};

class AwsS3BucketPublicAccessBlock final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_s3_bucket_public_access_block", {{"bucket", Required("string", true)},
                                                               {"block_public_acls", Optional("bool")},
                                                               {"block_public_policy", Optional("bool")},
                                                               {"ignore_public_acls", Optional("bool")},
                                                               {"restrict_public_buckets", Optional("bool")},
                                                               {"skip_destroy", Optional("bool")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"bucket"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string bucket = GetString(planned, "bucket");
    Diagnostics diags = Put(ctx, bucket, planned);
    if (diags.HasErrors()) return {Value(), diags};
    return ReadAfterWrite(ctx, planned, bucket, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string bucket = GetString(prior, "id", GetString(prior, "bucket"));
    Result<XmlResponse> got = CallS3(*session_, ctx, "GetPublicAccessBlock", S3Call("GET", bucket, "publicAccessBlock"));
    if (!got.ok()) {
      if (IsNoSuchBucket(got.error()) || got.error().code == "NoSuchPublicAccessBlockConfiguration") return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetPublicAccessBlock", got.error())};
    }
    ValueMap m{{"id", Value::String(bucket)}, {"bucket", Value::String(bucket)}, {"skip_destroy", Get(prior, "skip_destroy")}};
    for (const auto& [attribute, element] : kSwitches) m[attribute] = Value::Bool(XmlText(got->result, element) == "true");
    return {Value::Object(std::move(m)), false, {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string bucket = GetString(prior, "id");
    return ReadAfterWrite(ctx, planned, bucket, Put(ctx, bucket, planned));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    if (GetBool(prior, "skip_destroy", false)) return {};
    Result<XmlResponse> done = CallS3(*session_, ctx, "DeletePublicAccessBlock", S3Call("DELETE", GetString(prior, "id"), "publicAccessBlock"));
    if (done.ok() || IsNoSuchBucket(done.error()) || done.error().code == "NoSuchPublicAccessBlockConfiguration") return {};
    return {AwsErrorDiag("DeletePublicAccessBlock", done.error())};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    for (const auto& [attribute, element] : kSwitches)
      if (Get(out, attribute).IsNull()) out = With(out, attribute, Value::Bool(false));
    return out;
  }

 private:
  Diagnostics Put(const OperationContext& ctx, const std::string& bucket, const Value& planned) {
    pugi::xml_document body = NewXmlBody("PublicAccessBlockConfiguration", kS3Xmlns);
    for (const auto& [attribute, element] : kSwitches)
      body.document_element().append_child(element).text() = GetBool(planned, attribute, false) ? "true" : "false";
    RestXmlRequest call = S3Call("PUT", bucket, "publicAccessBlock");
    SetS3Body(call, body);
    Result<XmlResponse> done = CallS3(*session_, ctx, "PutPublicAccessBlock", call);
    return done.ok() ? Diagnostics{} : AwsErrorDiag("PutPublicAccessBlock", done.error());
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsS3BucketPublicAccessBlock(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsS3BucketPublicAccessBlock>(std::move(session));
}

}  // namespace strata::aws
