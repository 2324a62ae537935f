#pragma once
// The AWS query protocol (IAM, STS, ELBv2, Auto Scaling; EC2's variant): a form-encoded
// POST of Action=...&Version=...&params, answered with XML.

#include <memory>
#include <string>

#include <pugixml.hpp>

#include "providers/aws/core/result.h"
#include "providers/aws/http/http_types.h"
#include "providers/aws/http/url.h"

namespace strata::aws {

//! One query-protocol call. Parameters keep their insertion order on the wire.
struct QueryRequest {
  std::string action;   //!< "AssumeRole"
  std::string version;  //!< "2011-06-15"
  QueryParams params;

  QueryRequest& Add(std::string name, std::string value);
  //! Adds "prefix.1", "prefix.2", ... — pass "Tags.member" for IAM-style lists,
  //! "SubnetId" for EC2-style ones.
  QueryRequest& AddList(const std::string& prefix, const std::vector<std::string>& values);
  //! The form body: Action, Version, then the parameters.
  std::string EncodeBody() const;
};

//! Turns a query call into the HTTP request sent to `endpoint` (scheme://host[:port][/path]).
HttpRequest BuildQueryHttpRequest(const QueryRequest& call, const std::string& endpoint);

//! A parsed XML response. Copies share the document.
struct XmlResponse {
  std::shared_ptr<pugi::xml_document> document;
  //! "<ActionResult>" under the root when present (query protocol), else the root
  //! element itself (EC2 puts results directly under "<ActionResponse>").
  pugi::xml_node result;
  std::string request_id;  //!< <ResponseMetadata><RequestId> or EC2's <requestId>
};

//! Parses a 2xx XML body for `action`. A body that is not XML is a MalformedResponse
//! error; an empty body gives an empty document with a null `result`.
Result<XmlResponse> ParseXmlResponse(const HttpResponse& response, const std::string& action);

//! Text of the descendant at a '/'-separated path ("Credentials/AccessKeyId"), or "".
std::string XmlText(pugi::xml_node node, const std::string& path);

}  // namespace strata::aws
