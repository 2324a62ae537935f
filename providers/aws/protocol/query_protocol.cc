#include "providers/aws/protocol/query_protocol.h"

#include "providers/aws/protocol/error_parser.h"

namespace strata::aws {

QueryRequest& QueryRequest::Add(std::string name, std::string value) {
  params.emplace_back(std::move(name), std::move(value));
  return *this;
}

QueryRequest& QueryRequest::AddList(const std::string& prefix,
                                    const std::vector<std::string>& values) {
  for (size_t i = 0; i < values.size(); ++i)
    params.emplace_back(prefix + "." + std::to_string(i + 1), values[i]);
  return *this;
}

std::string QueryRequest::EncodeBody() const {
  QueryParams all;
  all.reserve(params.size() + 2);
  all.emplace_back("Action", action);
  all.emplace_back("Version", version);
  all.insert(all.end(), params.begin(), params.end());
  return EncodeQuery(all);
}

HttpRequest BuildQueryHttpRequest(const QueryRequest& call, const std::string& endpoint) {
  HttpRequest request;
  request.method = "POST";
  request.url = endpoint;
  while (!request.url.empty() && request.url.back() == '/') request.url.pop_back();
  request.url += "/";
  request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
  request.body = call.EncodeBody();
  return request;
}

Result<XmlResponse> ParseXmlResponse(const HttpResponse& response, const std::string& action) {
  XmlResponse out;
  out.document = std::make_shared<pugi::xml_document>();
  out.request_id = RequestIdFromHeaders(response.headers);
  if (response.body.find_first_not_of(" \r\n\t") == std::string::npos) return out;
  pugi::xml_parse_result parsed =
      out.document->load_buffer(response.body.data(), response.body.size());
  if (!parsed) {
    AwsError error = AwsError::Client(error_codes::kMalformedResponse,
                                      std::string("response is not XML: ") + parsed.description());
    error.http_status = response.status;
    error.request_id = out.request_id;
    return error;
  }
  pugi::xml_node root = out.document->document_element();
  pugi::xml_node result = root.child((action + "Result").c_str());
  out.result = result ? result : root;
  std::string id = XmlText(root, "ResponseMetadata/RequestId");
  if (id.empty()) id = XmlText(root, "requestId");
  if (!id.empty()) out.request_id = id;
  return out;
}

std::string XmlText(pugi::xml_node node, const std::string& path) {
  size_t pos = 0;
  while (node && pos <= path.size()) {
    size_t slash = path.find('/', pos);
    node = node.child(path.substr(pos, slash == std::string::npos ? slash : slash - pos).c_str());
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  return node ? node.text().as_string() : "";
}

}  // namespace strata::aws
