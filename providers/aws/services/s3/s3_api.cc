#include "providers/aws/services/s3/s3_api.h"

#include "engine/base/base64.h"
#include "engine/base/hash.h"

namespace strata::aws {

RestXmlRequest S3Call(const std::string& method, const std::string& bucket, const std::string& subresource,
                      const std::string& key) {
  RestXmlRequest call;
  call.method = method;
  call.bucket = bucket;
  call.path = key.empty() ? "/" : "/" + UriEncode(key, /*keep_slash=*/true);
  if (!subresource.empty()) call.query.emplace_back(subresource, "");
  return call;
}

void SetS3Body(RestXmlRequest& call, const pugi::xml_document& body) {
  call.body = XmlBodyText(body);
  SetHeader(call.headers, "Content-MD5", base::Base64Encode(base::Digest(base::DigestAlgorithm::kMd5, *call.body)));
}

Result<XmlResponse> CallS3(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                           const RestXmlRequest& call) {
  ctx.Log(LogLevel::Debug, "s3:" + operation);
  return session.client->RestXml("s3", call, CallOptionsFor(ctx));
}

Result<HttpResponse> CallS3Raw(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const RestXmlRequest& call) {
  ctx.Log(LogLevel::Debug, "s3:" + operation);
  return session.client->RestXmlRaw("s3", call, CallOptionsFor(ctx));
}

bool IsNoSuchBucket(const AwsError& error) {
  return error.code == kNoSuchBucket || (error.http_status == 404 && error.code == "NotFound");
}

}  // namespace strata::aws
