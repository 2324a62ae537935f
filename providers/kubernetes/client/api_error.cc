#include "providers/kubernetes/client/api_error.h"

#include <fmt/format.h>

#include "providers/kubernetes/client/json_fields.h"

namespace strata::kubernetes {
namespace {

// The part of a body worth quoting when it is not a Status (an HTML error page, a proxy's text).
std::string Excerpt(const std::string& body) {
  constexpr size_t kMax = 200;
  std::string s = body.substr(0, kMax);
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return body.size() > kMax ? s + "..." : s;
}

std::optional<int> ParseRetryAfter(const std::optional<std::string>& header) {
  if (!header || header->empty()) return std::nullopt;
  try {
    return std::stoi(*header);
  } catch (const std::exception&) {
    return std::nullopt;  // an HTTP date: treated as no hint
  }
}

}  // namespace

bool ApiError::IsFieldManagerConflict() const {
  if (http_status != 409) return false;
  for (const StatusCause& c : causes) {
    if (c.type == "FieldManagerConflict") return true;
  }
  return false;
}

std::string ApiError::Describe() const {
  if (http_status == 0) return message;
  std::string out = fmt::format("HTTP {}", http_status);
  if (!reason.empty()) out += " " + reason;
  if (!message.empty()) out += ": " + message;
  for (const StatusCause& c : causes) {
    out += "\n  - ";
    if (!c.field.empty()) out += c.field + ": ";
    out += c.message.empty() ? c.type : c.message;
  }
  return out;
}

ApiError ParseStatusError(int http_status, const std::string& body, const std::optional<std::string>& retry_after) {
  ApiError error;
  error.http_status = http_status;
  error.retry_after_seconds = ParseRetryAfter(retry_after);
  nlohmann::json status = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!status.is_object() || StringAt(status, "kind") != "Status") {
    error.message = body.empty() ? "(empty answer)" : Excerpt(body);
    return error;
  }
  error.reason = StringAt(status, "reason");
  error.message = StringAt(status, "message");
  auto details = status.find("details");
  if (details != status.end() && details->is_object()) {
    error.details_kind = StringAt(*details, "kind");
    error.details_group = StringAt(*details, "group");
    auto causes = details->find("causes");
    if (causes != details->end() && causes->is_array()) {
      for (const auto& c : *causes) {
        if (!c.is_object()) continue;
        error.causes.push_back({StringAt(c, "reason"), StringAt(c, "field"), StringAt(c, "message")});
      }
    }
    auto retry = details->find("retryAfterSeconds");
    if (!error.retry_after_seconds && retry != details->end() && retry->is_number_integer()) {
      error.retry_after_seconds = retry->get<int>();
    }
  }
  return error;
}

}  // namespace strata::kubernetes
