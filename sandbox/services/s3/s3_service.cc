// The sandbox's S3 (REST-XML, API version 2006-03-01), path-style: /{bucket}[/{key}], the
// operation named by the method and the subresource in the query ("?tagging",
// "?versioning", "?publicAccessBlock", "?location", "?list-type=2", "?versions"). Requests
// are signed as S3 signs them (sigv4_verifier: no double encoding, the payload hash in
// x-amz-content-sha256).

#include "engine/base/hash.h"
#include "sandbox/services/s3/s3_store.h"

namespace strata::sandbox {
namespace {

ApiError NotServed(const ServiceContext& ctx) {
  return ApiError(405, "MethodNotAllowed",
                  "The sandbox's S3 has no operation " + ctx.request.method + " " + ctx.request.path +
                      " (it serves buckets, their tagging, versioning and public access block, and small objects).");
}

//! S3 checks a hashed payload against its x-amz-content-sha256 (UNSIGNED-PAYLOAD and the
//! streaming forms carry no hash to check).
void CheckContentSha256(const ServiceContext& ctx) {
  auto header = ctx.request.headers.find("x-amz-content-sha256");
  if (header == ctx.request.headers.end() || header->second.size() != 64) return;
  if (header->second != base::Sha256Hex(ctx.request.body))
    throw ApiError(400, "XAmzContentSHA256Mismatch",
                   "The provided 'x-amz-content-sha256' header does not match what was computed.");
}

Response BucketOperation(ServiceContext& ctx, const std::string& bucket) {
  const std::string& method = ctx.request.method;
  if (s3::HasQuery(ctx, "tagging")) {
    if (method == "PUT") return s3::PutBucketTagging(ctx, bucket);
    if (method == "GET") return s3::GetBucketTagging(ctx, bucket);
    if (method == "DELETE") return s3::DeleteBucketTagging(ctx, bucket);
  } else if (s3::HasQuery(ctx, "versioning")) {
    if (method == "PUT") return s3::PutBucketVersioning(ctx, bucket);
    if (method == "GET") return s3::GetBucketVersioning(ctx, bucket);
  } else if (s3::HasQuery(ctx, "publicAccessBlock")) {
    if (method == "PUT") return s3::PutPublicAccessBlock(ctx, bucket);
    if (method == "GET") return s3::GetPublicAccessBlock(ctx, bucket);
    if (method == "DELETE") return s3::DeletePublicAccessBlock(ctx, bucket);
  } else if (s3::HasQuery(ctx, "location")) {
    if (method == "GET") return s3::GetBucketLocation(ctx, bucket);
  } else if (s3::HasQuery(ctx, "versions")) {
    if (method == "GET") return s3::ListObjectVersions(ctx, bucket);
  } else if (method == "PUT") {
    return s3::CreateBucket(ctx, bucket);
  } else if (method == "HEAD") {
    return s3::HeadBucket(ctx, bucket);
  } else if (method == "DELETE") {
    return s3::DeleteBucket(ctx, bucket);
  } else if (method == "GET") {
    return s3::ListObjectsV2(ctx, bucket);
  }
  throw NotServed(ctx);
}

Response ObjectOperation(ServiceContext& ctx, const std::string& bucket, const std::string& key) {
  const std::string& method = ctx.request.method;
  if (method == "PUT") return s3::PutObject(ctx, bucket, key);
  if (method == "GET" || method == "HEAD") return s3::GetObject(ctx, bucket, key, method == "HEAD");
  if (method == "DELETE") return s3::DeleteObject(ctx, bucket, key);
  throw NotServed(ctx);
}

class S3Service final : public Service {
 public:
  std::string name() const override { return "s3"; }
  Protocol protocol() const override { return Protocol::RestXml; }

  Response Handle(ServiceContext& ctx) override {
    CheckContentSha256(ctx);
    const std::string& path = ctx.request.path;
    size_t start = path.find_first_not_of('/');
    if (start == std::string::npos) {
      if (ctx.request.method == "GET") return s3::ListBuckets(ctx);
      throw NotServed(ctx);
    }
    size_t slash = path.find('/', start);
    std::string bucket = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    std::string key = slash == std::string::npos ? "" : path.substr(slash + 1);
    Response response = key.empty() ? BucketOperation(ctx, bucket) : ObjectOperation(ctx, bucket, key);
    response.headers["x-amz-request-id"] = ctx.request.request_id;
    return response;
  }
};

}  // namespace

std::unique_ptr<Service> NewS3Service() { return std::make_unique<S3Service>(); }

}  // namespace strata::sandbox
