// S3 objects as the sandbox serves them: PutObject, GetObject (and HEAD), DeleteObject,
// ListObjectsV2 (prefix, max-keys, continuation) and ListObjectVersions (the current version
// of each object: the sandbox keeps no older ones).

#include "engine/base/base64.h"
#include "engine/base/hash.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/s3/s3_store.h"

namespace strata::sandbox::s3 {
namespace {

constexpr int kDefaultMaxKeys = 1000;

std::string ObjectId(const std::string& bucket, const std::string& key) { return bucket + "/" + key; }

int MaxKeys(const ServiceContext& ctx) {
  std::string text = S3QueryValue(ctx, "max-keys");
  if (text.empty()) return kDefaultMaxKeys;
  try {
    int n = std::stoi(text);
    if (n >= 0) return std::min(n, kDefaultMaxKeys);
  } catch (const std::exception&) {
  }
  throw ApiError(400, "InvalidArgument", "Provided max-keys not an integer or within integer range");
}

void WriteObjectSummary(pugi::xml_node node, const Json& object) {
  AddText(node, "Key", object["Key"]);
  AddText(node, "LastModified", object["LastModified"]);
  AddText(node, "ETag", object["ETag"]);
  AddText(node, "Size", std::to_string(object["Size"].get<int64_t>()));
  AddText(node, "StorageClass", "STANDARD");
}

}  // namespace

std::vector<Json> BucketObjects(ServiceContext& ctx, const std::string& bucket, const std::string& prefix) {
  std::vector<Json> out;
  for (auto& [id, object] : ctx.world.ListPrefix(kObjectKind, ObjectId(bucket, prefix))) out.push_back(object);
  return out;
}

Response PutObject(ServiceContext& ctx, const std::string& bucket, const std::string& key) {
  Json b = LoadBucket(ctx, bucket);
  const std::string& body = ctx.request.body;
  std::string etag = "\"" + base::DigestHex(base::DigestAlgorithm::kMd5, body) + "\"";
  auto type = ctx.request.headers.find("content-type");
  Json object{{"Key", key},
              {"Body", base::Base64Encode(body)},
              {"Size", static_cast<int64_t>(body.size())},
              {"ETag", etag},
              {"ContentType", type == ctx.request.headers.end() ? "binary/octet-stream" : type->second},
              {"LastModified", IsoTime(ctx.now)},
              {"VersionId", b["Versioning"] == "Enabled" ? ctx.world.RandomString(32, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") : "null"}};
  ctx.world.Put(kObjectKind, ObjectId(bucket, key), object);
  Response response = S3Empty(200);
  response.headers["ETag"] = etag;
  if (object["VersionId"] != "null") response.headers["x-amz-version-id"] = object["VersionId"].get<std::string>();
  return response;
}

Response GetObject(ServiceContext& ctx, const std::string& bucket, const std::string& key, bool head) {
  LoadBucket(ctx, bucket);
  std::optional<Json> object = ctx.world.Get(kObjectKind, ObjectId(bucket, key));
  if (!object) throw ApiError(404, "NoSuchKey", "The specified key does not exist.");
  Response response;
  response.status = 200;
  response.content_type = (*object)["ContentType"];
  if (!head) response.body = base::Base64Decode((*object)["Body"].get<std::string>()).value_or("");
  response.headers["ETag"] = (*object)["ETag"].get<std::string>();
  if ((*object)["VersionId"] != "null") response.headers["x-amz-version-id"] = (*object)["VersionId"].get<std::string>();
  return response;
}

Response DeleteObject(ServiceContext& ctx, const std::string& bucket, const std::string& key) {
  LoadBucket(ctx, bucket);
  ctx.world.Erase(kObjectKind, ObjectId(bucket, key));
  return S3Empty();
}

Response ListObjectsV2(ServiceContext& ctx, const std::string& bucket) {
  LoadBucket(ctx, bucket);
  std::string prefix = S3QueryValue(ctx, "prefix");
  std::string token = S3QueryValue(ctx, "continuation-token");
  std::string start_after = token.empty() ? S3QueryValue(ctx, "start-after") : token;
  int max_keys = MaxKeys(ctx);
  std::vector<Json> objects = BucketObjects(ctx, bucket, prefix);
  pugi::xml_document doc = S3Document("ListBucketResult");
  pugi::xml_node root = doc.document_element();
  AddText(root, "Name", bucket);
  AddText(root, "Prefix", prefix);
  int count = 0;
  std::string last;
  bool truncated = false;
  for (const Json& object : objects) {
    if (!start_after.empty() && object["Key"].get<std::string>() <= start_after) continue;
    if (count == max_keys) {
      truncated = true;
      break;
    }
    WriteObjectSummary(AddChild(root, "Contents"), object);
    last = object["Key"];
    ++count;
  }
  AddText(root, "KeyCount", std::to_string(count));
  AddText(root, "MaxKeys", std::to_string(max_keys));
  AddBool(root, "IsTruncated", truncated);
  if (!token.empty()) AddText(root, "ContinuationToken", token);
  if (truncated) AddText(root, "NextContinuationToken", last);
  return S3Response(doc);
}

Response ListObjectVersions(ServiceContext& ctx, const std::string& bucket) {
  LoadBucket(ctx, bucket);
  std::string prefix = S3QueryValue(ctx, "prefix");
  std::string marker = S3QueryValue(ctx, "key-marker");
  int max_keys = MaxKeys(ctx);
  pugi::xml_document doc = S3Document("ListVersionsResult");
  pugi::xml_node root = doc.document_element();
  AddText(root, "Name", bucket);
  AddText(root, "Prefix", prefix);
  AddText(root, "KeyMarker", marker);
  int count = 0;
  bool truncated = false;
  std::string last;
  for (const Json& object : BucketObjects(ctx, bucket, prefix)) {
    if (!marker.empty() && object["Key"].get<std::string>() <= marker) continue;
    if (count == max_keys) {
      truncated = true;
      break;
    }
    pugi::xml_node version = AddChild(root, "Version");
    AddText(version, "Key", object["Key"]);
    AddText(version, "VersionId", object["VersionId"]);
    AddBool(version, "IsLatest", true);
    AddText(version, "LastModified", object["LastModified"]);
    AddText(version, "ETag", object["ETag"]);
    AddText(version, "Size", std::to_string(object["Size"].get<int64_t>()));
    AddText(version, "StorageClass", "STANDARD");
    last = object["Key"];
    ++count;
  }
  AddText(root, "MaxKeys", std::to_string(max_keys));
  AddBool(root, "IsTruncated", truncated);
  if (truncated) {
    AddText(root, "NextKeyMarker", last);
    AddText(root, "NextVersionIdMarker", "null");
  }
  return S3Response(doc);
}

}  // namespace strata::sandbox::s3
