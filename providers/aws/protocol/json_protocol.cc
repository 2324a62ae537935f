#include "providers/aws/protocol/json_protocol.h"

#include "providers/aws/protocol/error_parser.h"

namespace strata::aws {
namespace {

std::string JoinEndpoint(const std::string& endpoint, const std::string& path) {
  std::string base = endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + (path.empty() || path.front() != '/' ? "/" : "") + path;
}

}  // namespace

HttpRequest BuildJsonRpcHttpRequest(const JsonRpcRequest& call, const std::string& endpoint) {
  HttpRequest request;
  request.method = "POST";
  request.url = JoinEndpoint(endpoint, "/");
  request.headers.emplace_back("Content-Type", "application/x-amz-json-" + call.json_version);
  request.headers.emplace_back("X-Amz-Target", call.target_prefix + "." + call.operation);
  request.body = call.body.is_null() ? "{}" : call.body.dump();
  return request;
}

HttpRequest BuildRestJsonHttpRequest(const RestJsonRequest& call, const std::string& endpoint) {
  HttpRequest request;
  request.method = call.method;
  request.url = JoinEndpoint(endpoint, call.path);
  if (!call.query.empty()) request.url += "?" + EncodeQuery(call.query);
  request.headers = call.headers;
  if (call.body) {
    SetHeader(request.headers, "Content-Type", "application/json");
    request.body = call.body->dump();
  }
  return request;
}

std::string EncodePathLabel(std::string_view label) { return UriEncode(label); }

Result<nlohmann::json> ParseJsonResponse(const HttpResponse& response) {
  if (response.body.find_first_not_of(" \r\n\t") == std::string::npos)
    return nlohmann::json::object();
  auto json = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    AwsError error = AwsError::Client(error_codes::kMalformedResponse, "response is not JSON");
    error.http_status = response.status;
    error.request_id = RequestIdFromHeaders(response.headers);
    return error;
  }
  return json;
}

}  // namespace strata::aws
