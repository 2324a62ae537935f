#pragma once
// The REST-XML protocol (Route 53, S3, CloudFront): the HTTP method, the path and the query
// name the operation; the input is in the path, the query, headers and an XML body; the answer
// is an XML document (or headers alone). Errors are error_parser.h's REST-XML shapes.
//
// S3 addresses a bucket either in the path (path style: {endpoint}/{bucket}/{key}, what an
// endpoint override and the AWS CLI against a local endpoint use) or in the host name
// (virtual-hosted style: {bucket}.s3.{region}.amazonaws.com/{key}, AWS's default).

#include <optional>
#include <string>

#include <pugixml.hpp>

#include "providers/aws/core/result.h"
#include "providers/aws/http/http_types.h"
#include "providers/aws/http/url.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

//! One REST-XML call. `path` is already encoded (build it with EncodePathLabel) and is
//! relative to the bucket when `bucket` is set.
struct RestXmlRequest {
  std::string method = "GET";
  std::string path = "/";
  QueryParams query;
  std::optional<std::string> body;  //!< an XML document (XmlBody) or raw bytes; nullopt: none
  std::string content_type = "application/xml";
  HttpHeaders headers;   //!< extra headers (Content-MD5, x-amz-* inputs)
  std::string bucket;    //!< S3: the bucket the call addresses; empty: none (ListBuckets, Route 53)
};

//! How an S3 bucket is addressed.
enum class BucketAddressing { PathStyle, VirtualHosted };

//! Path style when forced (the provider's s3_use_path_style), when the endpoint is an
//! override (a local endpoint has no per-bucket host names) and when the bucket name holds a
//! '.' (its virtual host would not match the wildcard certificate); else virtual-hosted.
BucketAddressing ChooseBucketAddressing(const std::string& bucket, bool force_path_style,
                                        bool endpoint_overridden);

//! {endpoint}{path}?{query}, the bucket placed by `addressing`; Content-Type when there is a body.
HttpRequest BuildRestXmlHttpRequest(const RestXmlRequest& call, const std::string& endpoint,
                                    BucketAddressing addressing = BucketAddressing::PathStyle);

//! Parses a 2xx answer: `result` is the document's root element (null for an empty body,
//! e.g. an answer in headers alone); a body that is not XML is a MalformedResponse error.
Result<XmlResponse> ParseRestXmlResponse(const HttpResponse& response);

//! A document whose root is <root xmlns="namespace"> (namespace omitted when empty), to fill
//! as a request body.
pugi::xml_document NewXmlBody(const char* root, const std::string& xml_namespace);
//! The document as the body text, declaration first.
std::string XmlBodyText(const pugi::xml_document& doc);

}  // namespace strata::aws
