#include "providers/aws/protocol/error_parser.h"

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

namespace strata::aws {
namespace {

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' ||
                        s.front() == '\t' || s.front() == '\xEF' || s.front() == '\xBB' ||
                        s.front() == '\xBF'))
    s.remove_prefix(1);
  return s;
}

std::string Text(pugi::xml_node node, const char* name) {
  return node.child(name).text().as_string();
}

// Fills code/message/request id from an XML error body; false if none was found.
bool ParseXmlError(std::string_view body, AwsError* error) {
  pugi::xml_document doc;
  if (!doc.load_buffer(body.data(), body.size())) return false;
  pugi::xml_node root = doc.document_element();
  pugi::xml_node err;
  std::string request_id;
  if (std::string_view(root.name()) == "ErrorResponse") {  // query protocol
    err = root.child("Error");
    request_id = Text(root, "RequestId");
  } else if (std::string_view(root.name()) == "Response") {  // EC2
    err = root.child("Errors").child("Error");
    request_id = Text(root, "RequestID");
    if (request_id.empty()) request_id = Text(root, "RequestId");
  } else if (std::string_view(root.name()) == "Error") {  // REST-XML (S3, Route 53)
    err = root;
  }
  if (!err) return false;
  error->code = Text(err, "Code");
  error->message = Text(err, "Message");
  if (request_id.empty()) request_id = Text(err, "RequestId");
  if (!request_id.empty()) error->request_id = request_id;
  return !error->code.empty();
}

// Fills code/message from a JSON error body; false if no code was found.
bool ParseJsonError(std::string_view body, AwsError* error) {
  auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return false;
  auto string_field = [&](std::initializer_list<const char*> names) -> std::string {
    for (const char* name : names)
      if (auto it = json.find(name); it != json.end() && it->is_string()) return *it;
    return "";
  };
  if (error->code.empty()) error->code = SanitizeErrorCode(string_field({"__type", "code", "Code"}));
  error->message = string_field({"message", "Message", "errorMessage"});
  return !error->code.empty();
}

std::string CodeFromStatus(int status) {
  switch (status) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 409: return "Conflict";
    case 413: return "RequestEntityTooLarge";
    case 429: return "TooManyRequestsException";
    case 500: return "InternalError";
    case 502: return "BadGateway";
    case 503: return "ServiceUnavailable";
    case 504: return "GatewayTimeout";
    default: return "Http" + std::to_string(status);
  }
}

}  // namespace

std::string SanitizeErrorCode(std::string_view raw) {
  if (auto colon = raw.find(':'); colon != std::string_view::npos) raw = raw.substr(0, colon);
  if (auto hash = raw.rfind('#'); hash != std::string_view::npos) raw = raw.substr(hash + 1);
  while (!raw.empty() && raw.back() == ' ') raw.remove_suffix(1);
  return std::string(raw);
}

std::string RequestIdFromHeaders(const HttpHeaders& headers) {
  for (const char* name : {"x-amzn-RequestId", "x-amz-request-id", "x-amz-id-2"})
    if (auto v = FindHeader(headers, name); v && !v->empty()) return *v;
  return "";
}

AwsError ParseErrorResponse(const HttpResponse& response) {
  AwsError error;
  error.http_status = response.status;
  error.source = ErrorSource::Service;
  error.request_id = RequestIdFromHeaders(response.headers);
  if (auto type = FindHeader(response.headers, "x-amzn-ErrorType"); type && !type->empty())
    error.code = SanitizeErrorCode(*type);
  std::string_view body = TrimLeft(response.body);
  bool parsed = false;
  if (!body.empty() && body.front() == '<')
    parsed = ParseXmlError(body, &error);
  else if (!body.empty())
    parsed = ParseJsonError(body, &error);
  if (!parsed && error.code.empty()) {
    error.code = CodeFromStatus(response.status);
    if (error.message.empty())
      error.message = body.empty() ? "HTTP " + std::to_string(response.status) + " with no body"
                                   : std::string(body.substr(0, 256));
  }
  error.retryable = IsRetryableServiceError(error.code, error.http_status);
  // A 5xx answer does not say whether the service made the change before it failed; a
  // throttling answer (EC2's is a 503) says it refused the call.
  error.outcome_unknown = error.http_status >= 500 && !IsThrottlingCode(error.code);
  return error;
}

AwsError ErrorFromTransport(const TransportError& transport) {
  AwsError error;
  error.source = ErrorSource::Transport;
  error.message = transport.message;
  switch (transport.kind) {
    case TransportError::Kind::Connect:
      error.code = std::string(error_codes::kConnection);
      error.retryable = true;
      break;
    case TransportError::Kind::Lost:
      error.code = std::string(error_codes::kConnection);
      error.retryable = true;
      error.outcome_unknown = true;
      break;
    case TransportError::Kind::Timeout:
      error.code = std::string(error_codes::kTimeout);
      error.retryable = true;
      error.outcome_unknown = true;
      break;
    case TransportError::Kind::Tls:
      error.code = std::string(error_codes::kTls);
      break;
    case TransportError::Kind::Other:
      error.code = std::string(error_codes::kTransport);
      break;
  }
  return error;
}

}  // namespace strata::aws
