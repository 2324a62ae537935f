#pragma once
// HttpTransport: the network seam of the AWS provider. The real implementation is
// CurlTransport; tests use a local server or a scripted fake.

#include <variant>

#include "providers/aws/http/http_types.h"

namespace strata::aws {

//! A response (any status) or the reason none was received.
class TransportResult {
 public:
  TransportResult(HttpResponse r) : v_(std::move(r)) {}    // NOLINT: implicit by design
  TransportResult(TransportError e) : v_(std::move(e)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  const HttpResponse& response() const { return std::get<0>(v_); }
  HttpResponse& response() { return std::get<0>(v_); }
  const TransportError& error() const { return std::get<1>(v_); }

 private:
  std::variant<HttpResponse, TransportError> v_;
};

//! Sends one HTTP request and waits for the whole response. No retries, no redirects.
//! Implementations must be safe to call from many threads at once.
class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  virtual TransportResult Send(const HttpRequest& request) = 0;
};

}  // namespace strata::aws
