#pragma once
// Calling Amazon S3 (REST-XML, API version 2006-03-01; regional, endpoint override key "s3";
// buckets addressed path-style or virtual-hosted as the client decides, rest_xml_protocol.h)
// from a resource type.

#include <string>

#include "providers/aws/common/aws_session.h"
#include "providers/aws/protocol/rest_xml_protocol.h"

namespace strata::aws {

inline constexpr const char* kS3Xmlns = "http://s3.amazonaws.com/doc/2006-03-01/";
inline constexpr const char* kNoSuchBucket = "NoSuchBucket";

//! A call on `bucket` ("" for ListBuckets): `subresource` is the query naming the operation
//! ("tagging", "versioning"; "" for none), `key` an object key ("" for the bucket itself).
RestXmlRequest S3Call(const std::string& method, const std::string& bucket, const std::string& subresource = "",
                      const std::string& key = "");
//! Sets `body` (an XML document) as the call's body with its Content-MD5, which S3 requires
//! of its configuration writes (PutBucketTagging, PutPublicAccessBlock, ...).
void SetS3Body(RestXmlRequest& call, const pugi::xml_document& body);

//! Sends `call`, logging "s3:<operation>" at debug level; the XML answer parsed.
Result<XmlResponse> CallS3(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                           const RestXmlRequest& call);
//! The same, answered with the raw response (HeadBucket's headers).
Result<HttpResponse> CallS3Raw(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const RestXmlRequest& call);

//! A bucket that is not there: NoSuchBucket, or a HEAD's bare 404.
bool IsNoSuchBucket(const AwsError& error);

}  // namespace strata::aws
