#include "providers/aws/protocol/rest_xml_protocol.h"

#include <sstream>

namespace strata::aws {
namespace {

std::string TrimTrailingSlashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// "https://s3.us-east-1.amazonaws.com" -> "https://bucket.s3.us-east-1.amazonaws.com".
std::string WithBucketHost(const std::string& endpoint, const std::string& bucket) {
  size_t scheme = endpoint.find("://");
  if (scheme == std::string::npos) return bucket + "." + endpoint;
  return endpoint.substr(0, scheme + 3) + bucket + "." + endpoint.substr(scheme + 3);
}

}  // namespace

BucketAddressing ChooseBucketAddressing(const std::string& bucket, bool force_path_style,
                                        bool endpoint_overridden) {
  if (force_path_style || endpoint_overridden || bucket.find('.') != std::string::npos)
    return BucketAddressing::PathStyle;
  return BucketAddressing::VirtualHosted;
}

HttpRequest BuildRestXmlHttpRequest(const RestXmlRequest& call, const std::string& endpoint,
                                    BucketAddressing addressing) {
  HttpRequest request;
  request.method = call.method;
  std::string base = TrimTrailingSlashes(endpoint);
  std::string path = call.path.empty() || call.path.front() != '/' ? "/" + call.path : call.path;
  if (!call.bucket.empty()) {
    if (addressing == BucketAddressing::VirtualHosted) {
      base = WithBucketHost(base, call.bucket);
    } else {
      path = "/" + UriEncode(call.bucket) + (path == "/" ? "" : path);
    }
  }
  request.url = base + path;
  if (!call.query.empty()) request.url += "?" + EncodeQuery(call.query);
  request.headers = call.headers;
  if (call.body) {
    SetHeader(request.headers, "Content-Type", call.content_type);
    request.body = *call.body;
  }
  return request;
}

Result<XmlResponse> ParseRestXmlResponse(const HttpResponse& response) {
  Result<XmlResponse> parsed = ParseXmlResponse(response, "");
  if (!parsed.ok()) return parsed;
  XmlResponse out = *parsed;
  out.result = out.document->document_element();
  return out;
}

pugi::xml_document NewXmlBody(const char* root, const std::string& xml_namespace) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node element = doc.append_child(root);
  if (!xml_namespace.empty()) element.append_attribute("xmlns") = xml_namespace.c_str();
  return doc;
}

std::string XmlBodyText(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw);
  return out.str();
}

}  // namespace strata::aws
