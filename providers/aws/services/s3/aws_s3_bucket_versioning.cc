// aws_s3_bucket_versioning: a bucket's versioning state (PutBucketVersioning /
// GetBucketVersioning), with Terraform's attributes; the id is the bucket name. The bucket is
// the natural key: putting the configuration again doubles nothing. "Disabled" is only for a
// bucket never versioned (nothing is sent); a delete suspends versioning, as Terraform does,
// since S3 cannot turn it off again.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/s3/s3_api.h"
#include "providers/aws/services/s3/s3_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsS3BucketVersioning final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_s3_bucket_versioning",
                         {{"bucket", Required("string", true)},
                          {"expected_bucket_owner", Optional("string", true)},
                          {"mfa", Optional("string")},
                          {"versioning_configuration", Required("list(object({status=string, mfa_delete=optional(string)}))")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"bucket"}; }

  Diagnostics Validate(const Value& config) const override {
    Value status = Get(FirstBlock(config, "versioning_configuration"), "status");
    if (status.IsString() && status.AsString() != "Enabled" && status.AsString() != "Suspended" && status.AsString() != "Disabled")
      return Error("Invalid versioning status", "versioning_configuration.status is Enabled, Suspended or Disabled, not \"" + status.AsString() + "\".");
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string bucket = GetString(planned, "bucket");
    Diagnostics diags;
    if (Status(planned) != "Disabled") diags = Put(ctx, bucket, planned);
    if (diags.HasErrors()) return {Value(), diags};
    return ReadAfterWrite(ctx, planned, bucket, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string bucket = GetString(prior, "id", GetString(prior, "bucket"));
    Result<XmlResponse> got = CallS3(*session_, ctx, "GetBucketVersioning", S3Call("GET", bucket, "versioning"));
    if (!got.ok()) {
      if (IsNoSuchBucket(got.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetBucketVersioning", got.error())};
    }
    std::string status = XmlText(got->result, "Status");
    if (status.empty()) status = "Disabled";
    std::string mfa_delete = XmlText(got->result, "MfaDelete");
    Value block = Value::Object({{"status", Value::String(status)},
                                 {"mfa_delete", mfa_delete.empty() ? Get(FirstBlock(prior, "versioning_configuration"), "mfa_delete")
                                                                   : Value::String(mfa_delete)}});
    return {Value::Object({{"id", Value::String(bucket)},
                           {"bucket", Value::String(bucket)},
                           {"expected_bucket_owner", Get(prior, "expected_bucket_owner")},
                           {"mfa", Get(prior, "mfa")},
                           {"versioning_configuration", Value::List({block})}}),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string bucket = GetString(prior, "id");
    return ReadAfterWrite(ctx, planned, bucket, Put(ctx, bucket, planned));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    if (Status(prior) != "Enabled") return {};
    Value suspended = With(prior, "versioning_configuration", Value::List({Value::Object({{"status", Value::String("Suspended")}})}));
    Diagnostics diags = Put(ctx, GetString(prior, "id"), suspended);
    if (diags.HasErrors()) {
      // A bucket deleted first leaves nothing to suspend.
      Result<XmlResponse> head = CallS3(*session_, ctx, "GetBucketVersioning", S3Call("GET", GetString(prior, "id"), "versioning"));
      if (!head.ok() && IsNoSuchBucket(head.error())) return {};
    }
    return {diags};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id.substr(0, id.find(',')));
  }

 private:
  static std::string Status(const Value& v) { return GetString(FirstBlock(v, "versioning_configuration"), "status"); }

  Diagnostics Put(const OperationContext& ctx, const std::string& bucket, const Value& planned) {
    pugi::xml_document body = NewXmlBody("VersioningConfiguration", kS3Xmlns);
    pugi::xml_node root = body.document_element();
    std::string status = Status(planned);
    root.append_child("Status").text() = (status == "Disabled" ? "Suspended" : status).c_str();
    std::string mfa_delete = GetString(FirstBlock(planned, "versioning_configuration"), "mfa_delete");
    if (!mfa_delete.empty()) root.append_child("MfaDelete").text() = mfa_delete.c_str();
    RestXmlRequest call = S3Call("PUT", bucket, "versioning");
    SetS3Body(call, body);
    std::string mfa = GetString(planned, "mfa");
    if (!mfa.empty()) call.headers.emplace_back("x-amz-mfa", mfa);
    std::string owner = GetString(planned, "expected_bucket_owner");
    if (!owner.empty()) call.headers.emplace_back("x-amz-expected-bucket-owner", owner);
    Result<XmlResponse> done = CallS3(*session_, ctx, "PutBucketVersioning", call);
    return done.ok() ? Diagnostics{} : AwsErrorDiag("PutBucketVersioning", done.error());
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsS3BucketVersioning(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsS3BucketVersioning>(std::move(session));
}

}  // namespace strata::aws
