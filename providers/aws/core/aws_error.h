#pragma once
// AwsError: the one error type of the AWS provider. Service errors of every protocol
// (query XML, EC2 XML, JSON, REST-JSON), transport failures and client-side failures
// (no credentials, bad configuration) are all mapped onto it.

#include <string>
#include <string_view>

namespace strata::aws {

//! Where an error came from. Service errors carry the service's code; transport and
//! client errors use the fixed codes below.
enum class ErrorSource { Service, Transport, Client };

//! Codes used for errors that did not come from an AWS service response.
namespace error_codes {
inline constexpr std::string_view kConnection = "ConnectionError";       // connect/reset/DNS
inline constexpr std::string_view kTimeout = "RequestTimeout";          // client-side timeout
inline constexpr std::string_view kTls = "TlsError";                    // certificate / handshake
inline constexpr std::string_view kTransport = "TransportError";        // any other transport failure
inline constexpr std::string_view kNoCredentials = "NoCredentialProviders";
inline constexpr std::string_view kInvalidConfig = "InvalidConfiguration";
inline constexpr std::string_view kMalformedResponse = "MalformedResponse";
inline constexpr std::string_view kUnknown = "UnknownError";
inline constexpr std::string_view kDeadlineExceeded = "DeadlineExceeded";
inline constexpr std::string_view kCancelled = "Cancelled";
}  // namespace error_codes

//! A failed AWS call. `retryable` is the classification made when the error was
//! built (throttling, 5xx, connection errors); callers may widen it (see RetryPolicy).
struct AwsError {
  std::string code;        //!< e.g. "ThrottlingException", "InvalidParameterException"
  std::string message;     //!< the service's message, never containing secrets
  std::string request_id;  //!< x-amzn-RequestId / <RequestId>, empty when unknown
  int http_status = 0;     //!< 0 when no HTTP response was received
  bool retryable = false;
  ErrorSource source = ErrorSource::Service;
  //! The request may have taken effect although it failed: the connection broke after it
  //! was sent, it timed out, or the service answered 5xx. A create that failed so may have
  //! made its object. After retries, true when any attempt's outcome was unknown.
  bool outcome_unknown = false;

  //! "Code: message (HTTP 400, request id abc)" — for logs and diagnostics.
  std::string ToString() const;

  //! A client-side error (configuration, credentials); never retryable.
  static AwsError Client(std::string_view code, std::string message);
};

//! True for the throttling codes of every AWS protocol (Throttling, SlowDown, ...).
bool IsThrottlingCode(std::string_view code);
//! True for codes AWS documents as transient (RequestTimeout, InternalError, ...).
bool IsTransientCode(std::string_view code);
//! The default retry classification of a service error: throttling, transient codes,
//! HTTP 429 and 5xx (except 501 Not Implemented).
bool IsRetryableServiceError(std::string_view code, int http_status);

}  // namespace strata::aws
