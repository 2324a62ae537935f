// aws_s3_bucket: an S3 bucket, with Terraform's attributes (the bucket's own; versioning and
// the public access block are their own types). The id is the bucket name. CreateBucket takes
// no client token and no tags, and bucket names are global, so the name is the natural key:
// a bucket of that name this account owns (HeadBucket, or CreateBucket's
// BucketAlreadyOwnedByYou after an attempt whose answer was lost) is the one the create made.
// Tags change in place (PutBucketTagging / DeleteBucketTagging). Delete refuses a bucket
// holding objects (BucketNotEmpty) unless force_destroy, which deletes every object version
// first.

#include <cctype>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/wait.h"
#include "providers/aws/services/s3/s3_api.h"
#include "providers/aws/services/s3/s3_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kBucketAlreadyOwned = "BucketAlreadyOwnedByYou";
constexpr const char* kDefaultBucketPrefix = "terraform-";

class AwsS3Bucket final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_s3_bucket", {{"bucket", OptionalComputed("string", true)},
                                           {"bucket_prefix", Optional("string", true)},
                                           {"force_destroy", Optional("bool")},
                                           {"object_lock_enabled", OptionalComputed("bool", true)},
                                           {"tags", Optional("map(string)")},
                                           {"tags_all", Computed("map(string)")},
                                           {"arn", Computed("string")},
                                           {"bucket_domain_name", Computed("string")},
                                           {"bucket_regional_domain_name", Computed("string")},
                                           {"hosted_zone_id", Computed("string")},
                                           {"region", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"bucket", "bucket_prefix"}; }

  Diagnostics Validate(const Value& config) const override {
    if (!Get(config, "bucket").IsNull() && !Get(config, "bucket_prefix").IsNull())
      return Error("Conflicting bucket arguments", "\"bucket\" and \"bucket_prefix\" cannot both be set.");
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = BucketName(ctx, planned);
    RestXmlRequest call = S3Call("PUT", name);
    if (session_->Region() != "us-east-1") {
      pugi::xml_document body = NewXmlBody("CreateBucketConfiguration", kS3Xmlns);
      body.document_element().append_child("LocationConstraint").text() = session_->Region().c_str();
      call.body = XmlBodyText(body);
    }
    if (GetBool(planned, "object_lock_enabled", false)) call.headers.emplace_back("x-amz-bucket-object-lock-enabled", "true");
    ctx.Log(LogLevel::Debug, "s3:CreateBucket");
    Result<XmlResponse> created = session_->client->RestXml("s3", call, CreateCallOptionsFor(ctx));
    if (!created.ok() && !DoneByAnEarlierAttempt(created.error(), {kBucketAlreadyOwned})) {
      ApplyResult failed = CreateFailed("CreateBucket", created.error());
      if (created.error().code == kBucketAlreadyOwned)
        failed.diags.Error("Bucket \"" + name + "\" already exists in this account",
                           "Import it (strata import " + ctx.address + " " + name + ") to manage it here.");
      return failed;
    }
    Value with_name = With(planned, "bucket", Value::String(name));
    Diagnostics diags = WaitUntilListed(*session_, ctx, "S3 bucket " + name + " to exist",
                                        [&] { return ReadBucket(ctx, name, with_name); });
    TagMap tags = WantedTags(planned);
    if (!diags.HasErrors() && !tags.empty()) diags = PutTags(ctx, name, tags);
    return ReadAfterWrite(ctx, with_name, name, diags);
  }

  //! A name from bucket_prefix is unknown until the create, yet follows from the prefix and
  //! the token: the bucket can be looked for all the same.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    if (Get(planned, "bucket").IsUnknown() && Get(planned, "bucket_prefix").IsWhollyKnown() && !ctx.idempotency_token.empty())
      return FindCreated(ctx, planned);
    return AwsResourceType::FindInterrupted(ctx, planned);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadBucket(ctx, GetString(prior, "id", GetString(prior, "bucket")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id");
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    Diagnostics diags;
    if (from != to) diags = to.empty() ? Run(ctx, "DeleteBucketTagging", S3Call("DELETE", name, "tagging")) : PutTags(ctx, name, to);
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string name = GetString(prior, "id");
    if (GetBool(prior, "force_destroy", false)) {
      Diagnostics emptied = DeleteAllVersions(ctx, name);
      if (emptied.HasErrors()) return {emptied};
    }
    Result<XmlResponse> done = CallS3(*session_, ctx, "DeleteBucket", S3Call("DELETE", name));
    if (done.ok() || IsNoSuchBucket(done.error())) return {};
    Diagnostics diags = AwsErrorDiag("DeleteBucket", done.error());
    if (done.error().code == "BucketNotEmpty")
      diags.Error("Bucket \"" + name + "\" is not empty",
                  "Empty it first, or set force_destroy = true on " + ctx.address + " to delete its objects with it.");
    return {diags};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  //! The bucket of the planned name: this account owns it, and bucket names are global.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = BucketName(ctx, planned);
    return ReadBucket(ctx, name, With(planned, "bucket", Value::String(name)));
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "force_destroy").IsNull()) out = With(out, "force_destroy", Value::Bool(false));
    if (Get(out, "object_lock_enabled").IsNull()) out = With(out, "object_lock_enabled", Value::Bool(false));
    return out;
  }

 private:
  //! `bucket`, or `bucket_prefix` (Terraform's "terraform-" without one) and a unique suffix
  //! derived from the create's token, in lower case as bucket names must be.
  static std::string BucketName(const OperationContext& ctx, const Value& planned) {
    std::string name = GetString(planned, "bucket");
    if (!name.empty()) return name;
    std::string out = UniqueName(GetString(planned, "bucket_prefix", kDefaultBucketPrefix), ctx);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }

  Diagnostics Run(const OperationContext& ctx, const std::string& operation, const RestXmlRequest& call) {
    Result<XmlResponse> done = CallS3(*session_, ctx, operation, call);
    return done.ok() ? Diagnostics{} : AwsErrorDiag(operation, done.error());
  }

  Diagnostics PutTags(const OperationContext& ctx, const std::string& name, const TagMap& tags) {
    pugi::xml_document body = NewXmlBody("Tagging", kS3Xmlns);
    pugi::xml_node set = body.document_element().append_child("TagSet");
    for (const auto& [key, value] : tags) {
      pugi::xml_node tag = set.append_child("Tag");
      tag.append_child("Key").text() = key.c_str();
      tag.append_child("Value").text() = value.c_str();
    }
    RestXmlRequest call = S3Call("PUT", name, "tagging");
    SetS3Body(call, body);
    return Run(ctx, "PutBucketTagging", call);
  }

  //! force_destroy: every object version (and delete marker), page by page.
  Diagnostics DeleteAllVersions(const OperationContext& ctx, const std::string& name) {
    for (;;) {
      Result<XmlResponse> listed = CallS3(*session_, ctx, "ListObjectVersions", S3Call("GET", name, "versions"));
      if (!listed.ok()) return IsNoSuchBucket(listed.error()) ? Diagnostics{} : AwsErrorDiag("ListObjectVersions", listed.error());
      int deleted = 0;
      for (pugi::xml_node entry : listed->result.children()) {
        std::string kind = entry.name();
        if (kind != "Version" && kind != "DeleteMarker") continue;
        RestXmlRequest call = S3Call("DELETE", name, "", entry.child_value("Key"));
        std::string version = entry.child_value("VersionId");
        if (!version.empty() && version != "null") call.query.emplace_back("versionId", version);
        Diagnostics diags = Run(ctx, "DeleteObject", call);
        if (diags.HasErrors()) return diags;
        ++deleted;
      }
      if (deleted == 0) return {};
    }
  }

  ReadResult ReadBucket(const OperationContext& ctx, const std::string& name, const Value& prior) {
    Result<HttpResponse> head = CallS3Raw(*session_, ctx, "HeadBucket", S3Call("HEAD", name));
    if (!head.ok()) {
      if (IsNoSuchBucket(head.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("HeadBucket", head.error())};
    }
    std::string region = FindHeader(head->headers, "x-amz-bucket-region").value_or(session_->Region());
    Result<XmlResponse> tagged = CallS3(*session_, ctx, "GetBucketTagging", S3Call("GET", name, "tagging"));
    TagMap tags;
    if (tagged.ok()) {
      tags = ReadTagList(tagged->result.child("TagSet"), "Tag", "Key", "Value");
    } else if (tagged.error().code != "NoSuchTagSet") {
      return {Value(), false, AwsErrorDiag("GetBucketTagging", tagged.error())};
    }
    Value force_destroy = Get(prior, "force_destroy");
    Value lock = Get(prior, "object_lock_enabled");
    std::string suffix = PartitionDnsSuffix(region);
    return {Value::Object({{"id", Value::String(name)},
                           {"bucket", Value::String(name)},
                           {"bucket_prefix", Get(prior, "bucket_prefix")},
                           {"force_destroy", force_destroy.IsBool() ? force_destroy : Value::Bool(false)},
                           {"object_lock_enabled", lock.IsBool() ? lock : Value::Bool(false)},
                           {"tags", TagsForState(tags, session_->default_tags, Get(prior, "tags"))},
                           {"tags_all", TagsValue(tags)},
                           {"arn", Value::String("arn:" + PartitionOf(region) + ":s3:::" + name)},
                           {"bucket_domain_name", Value::String(name + ".s3." + suffix)},
                           {"bucket_regional_domain_name", Value::String(name + ".s3." + region + "." + suffix)},
                           {"hosted_zone_id", Value::String(S3HostedZoneId(region))},
                           {"region", Value::String(region)}}),
            false,
            {}};
  }

  //! The Route 53 zone of S3's website endpoints in `region` (Terraform's table, the regions
  //! Strata's users run in; "" elsewhere).
  static std::string S3HostedZoneId(const std::string& region) {
    static const std::pair<const char*, const char*> kZones[] = {
        {"us-east-1", "Z3AQBSTGFYJSTF"},      {"us-east-2", "Z2O1EMRO9K5GLX"},      {"us-west-1", "Z2F56UZL2M1ACD"},
        {"us-west-2", "Z3BJ6K6RIION7M"},      {"eu-west-1", "Z1BKCTXD74EZPE"},      {"eu-west-2", "Z3GKZC51ZF0DB4"},
        {"eu-central-1", "Z21DNDUVLTQW6Q"},   {"ap-southeast-1", "Z3O0J2DXBE1FTB"}, {"ap-southeast-2", "Z1WCIGYICN2BYD"},
        {"ap-northeast-1", "Z2M4EHUR26P7ZW"}, {"ca-central-1", "Z1QDHH18159H29"},   {"sa-east-1", "Z7KQH4QJS55SO"}};
    for (const auto& [name, zone] : kZones)
      if (region == name) return zone;
    return "";
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsS3Bucket(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsS3Bucket>(std::move(session));
}

}  // namespace strata::aws
