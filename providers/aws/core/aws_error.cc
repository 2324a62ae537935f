#include "providers/aws/core/aws_error.h"

#include <array>

namespace strata::aws {
namespace {

// The throttling codes of botocore's standard retry mode and aws-sdk-go-v2.
constexpr std::array<std::string_view, 14> kThrottlingCodes = {
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
};

constexpr std::array<std::string_view, 8> kTransientCodes = {
    "RequestTimeout",        "RequestTimeoutException", "InternalError",
    "InternalFailure",       "ServiceUnavailable",      "ServiceUnavailableException",
    "IDPCommunicationError", "InternalServerError",
};

}  // namespace

std::string AwsError::ToString() const {
  std::string out = code.empty() ? std::string(error_codes::kUnknown) : code;
  if (!message.empty()) out += ": " + message;
  if (http_status != 0 || !request_id.empty()) {
    out += " (";
    if (http_status != 0) out += "HTTP " + std::to_string(http_status);
    if (!request_id.empty()) {
      if (http_status != 0) out += ", ";
      out += "request id " + request_id;
    }
    out += ")";
  }
  return out;
}

AwsError AwsError::Client(std::string_view code, std::string message) {
  AwsError e;
  e.code = std::string(code);
  e.message = std::move(message);
  e.source = ErrorSource::Client;
  return e;
}

bool IsThrottlingCode(std::string_view code) {
  for (auto c : kThrottlingCodes)
    if (c == code) return true;
  return false;
}

bool IsTransientCode(std::string_view code) {
  for (auto c : kTransientCodes)
    if (c == code) return true;
  return false;
}

bool IsRetryableServiceError(std::string_view code, int http_status) {
  if (IsThrottlingCode(code) || IsTransientCode(code)) return true;
  if (http_status == 429) return true;
  return http_status >= 500 && http_status != 501 && http_status < 600;
}

}  // namespace strata::aws
