// S3 buckets as the sandbox serves them: CreateBucket (LocationConstraint as AWS checks it:
// absent in us-east-1, the signing region elsewhere; BucketAlreadyOwnedByYou for a name the
// account holds, except in us-east-1 where AWS answers 200 for legacy reasons), HeadBucket,
// GetBucketLocation, ListBuckets, DeleteBucket (BucketNotEmpty while it holds objects), and
// the bucket's tagging, versioning and public access block subresources.

#include <cctype>

#include "sandbox/protocol/rest_xml_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/s3/s3_store.h"

namespace strata::sandbox::s3 {
namespace {

bool ValidBucketName(const std::string& name) {
  if (name.size() < 3 || name.size() > 63) return false;
  for (char c : name)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.'))
      return false;
  return std::isalnum(static_cast<unsigned char>(name.front())) && std::isalnum(static_cast<unsigned char>(name.back()));
}

void SaveBucket(ServiceContext& ctx, const Json& bucket) { ctx.world.Put(kBucketKind, bucket["Name"], bucket); }

const char* kPublicAccessFields[] = {"BlockPublicAcls", "IgnorePublicAcls", "BlockPublicPolicy", "RestrictPublicBuckets"};

}  // namespace

Json LoadBucket(ServiceContext& ctx, const std::string& name) {
  std::optional<Json> bucket = ctx.world.Get(kBucketKind, name);
  if (!bucket) throw ApiError(404, "NoSuchBucket", "The specified bucket does not exist");
  return *bucket;
}

bool HasQuery(const ServiceContext& ctx, const std::string& name) { return ctx.request.query.count(name) > 0; }

std::string S3QueryValue(const ServiceContext& ctx, const std::string& name) {
  auto it = ctx.request.query.find(name);
  return it == ctx.request.query.end() ? "" : it->second;
}

pugi::xml_document S3Document(const char* root) { return RestXmlDocument(root, kS3Xmlns); }

Response S3Response(const pugi::xml_document& doc, int status) { return RestXmlResponse(doc, status, "application/xml"); }

Response S3Empty(int status) {
  Response response;
  response.status = status;
  response.content_type = "";
  return response;
}

pugi::xml_node ParseS3Body(const ServiceContext& ctx, pugi::xml_document& doc) {
  return ParseXmlBody(ctx.request.body, doc, "MalformedXML",
                      "The XML you provided was not well-formed or did not validate against our published schema");
}

Response ListBuckets(ServiceContext& ctx) {
  pugi::xml_document doc = S3Document("ListAllMyBucketsResult");
  pugi::xml_node root = doc.document_element();
  pugi::xml_node owner = AddChild(root, "Owner");
  AddText(owner, "ID", ctx.settings.account_id);
  AddText(owner, "DisplayName", "sandbox");
  pugi::xml_node buckets = AddChild(root, "Buckets");
  for (auto& [name, bucket] : ctx.world.List(kBucketKind)) {
    pugi::xml_node b = AddChild(buckets, "Bucket");
    AddText(b, "Name", name);
    AddText(b, "CreationDate", bucket["CreationDate"].get<std::string>());
    AddText(b, "BucketRegion", bucket["Region"].get<std::string>());
  }
  return S3Response(doc);
}

Response CreateBucket(ServiceContext& ctx, const std::string& name) {
  if (!ValidBucketName(name)) throw ApiError(400, "InvalidBucketName", "The specified bucket is not valid.");
  std::string region = RegionOf(ctx);
  std::string constraint;
  if (!ctx.request.body.empty()) {
    pugi::xml_document body;
    constraint = ParseS3Body(ctx, body).child_value("LocationConstraint");
  }
  if (region == "us-east-1" && constraint == "us-east-1")
    throw ApiError(400, "InvalidLocationConstraint", "The specified location-constraint is not valid");
  if (region != "us-east-1" && constraint != region)
    throw ApiError(400, "IllegalLocationConstraintException",
                   "The " + (constraint.empty() ? std::string("unspecified") : constraint) +
                       " location constraint is incompatible for the region specific endpoint this request was sent to.");
  if (std::optional<Json> existing = ctx.world.Get(kBucketKind, name)) {
    if (region == "us-east-1" && (*existing)["Region"] == "us-east-1") {
      Response response = S3Empty(200);
      response.headers["Location"] = "/" + name;
      return response;
    }
    throw ApiError(409, "BucketAlreadyOwnedByYou",
                   "Your previous request to create the named bucket succeeded and you already own it.");
  }
  SaveBucket(ctx, Json{{"Name", name},
                       {"Region", region},
                       {"CreationDate", IsoTime(ctx.now)},
                       {"Versioning", ""},
                       {"Tags", nullptr},
                       {"PublicAccessBlock", nullptr}});
  Response response = S3Empty(200);
  response.headers["Location"] = "/" + name;
  return response;
}

Response HeadBucket(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  Response response = S3Empty(200);
  response.headers["x-amz-bucket-region"] = bucket["Region"].get<std::string>();
  return response;
}

Response DeleteBucket(ServiceContext& ctx, const std::string& name) {
  LoadBucket(ctx, name);
  if (!BucketObjects(ctx, name).empty())
    throw ApiError(409, "BucketNotEmpty", "The bucket you tried to delete is not empty");
  ctx.world.Erase(kBucketKind, name);
  return S3Empty();
}

Response GetBucketLocation(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  pugi::xml_document doc = S3Document("LocationConstraint");
  std::string region = bucket["Region"];
  if (region != "us-east-1") doc.document_element().text() = region.c_str();
  return S3Response(doc);
}

Response PutBucketTagging(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  pugi::xml_document body;
  Json tags = Json::object();
  for (pugi::xml_node tag : ParseS3Body(ctx, body).child("TagSet").children("Tag")) {
    std::string key = tag.child_value("Key");
    if (key.rfind("aws:", 0) == 0) throw ApiError(400, "InvalidTag", "System tags cannot be added/updated by requester");
    tags[key] = tag.child_value("Value");
  }
  bucket["Tags"] = tags;
  SaveBucket(ctx, bucket);
  return S3Empty();
}

Response GetBucketTagging(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  if (bucket["Tags"].is_null()) throw ApiError(404, "NoSuchTagSet", "The TagSet does not exist");
  pugi::xml_document doc = S3Document("Tagging");
  pugi::xml_node set = AddChild(doc.document_element(), "TagSet");
  const Json& tags = bucket["Tags"];
  for (auto it = tags.begin(); it != tags.end(); ++it) {
    pugi::xml_node tag = AddChild(set, "Tag");
    AddText(tag, "Key", it.key());
    AddText(tag, "Value", it.value().get<std::string>());
  }
  return S3Response(doc);
}

Response DeleteBucketTagging(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  bucket["Tags"] = nullptr;
  SaveBucket(ctx, bucket);
  return S3Empty();
}

Response PutBucketVersioning(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  pugi::xml_document body;
  std::string status = ParseS3Body(ctx, body).child_value("Status");
  if (status != "Enabled" && status != "Suspended")
    throw ApiError(400, "MalformedXML",
                   "The XML you provided was not well-formed or did not validate against our published schema");
  bucket["Versioning"] = status;
  SaveBucket(ctx, bucket);
  return S3Empty(200);
}

Response GetBucketVersioning(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  pugi::xml_document doc = S3Document("VersioningConfiguration");
  std::string status = bucket["Versioning"];
  if (!status.empty()) AddText(doc.document_element(), "Status", status);
  return S3Response(doc);
}

Response PutPublicAccessBlock(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  pugi::xml_document body;
  pugi::xml_node config = ParseS3Body(ctx, body);
  Json block = Json::object();
  for (const char* field : kPublicAccessFields) block[field] = std::string(config.child_value(field)) == "true";
  bucket["PublicAccessBlock"] = block;
  SaveBucket(ctx, bucket);
  return S3Empty(200);
}

Response GetPublicAccessBlock(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  if (bucket["PublicAccessBlock"].is_null())
    throw ApiError(404, "NoSuchPublicAccessBlockConfiguration", "The public access block configuration was not found");
  pugi::xml_document doc = S3Document("PublicAccessBlockConfiguration");
  for (const char* field : kPublicAccessFields)
    AddBool(doc.document_element(), field, bucket["PublicAccessBlock"][field].get<bool>());
  return S3Response(doc);
}

Response DeletePublicAccessBlock(ServiceContext& ctx, const std::string& name) {
  Json bucket = LoadBucket(ctx, name);
  bucket["PublicAccessBlock"] = nullptr;
  SaveBucket(ctx, bucket);
  return S3Empty();
}

}  // namespace strata::sandbox::s3
