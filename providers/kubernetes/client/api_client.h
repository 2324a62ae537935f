#pragma once
// ApiClient: calls to one Kubernetes API server — the connection's URL (which may carry a
// path, as the sandbox's /clusters/<name> does), its TLS settings and credentials — with
// the retries kube clients make: 429 after Retry-After, 5xx and lost connections for calls
// that are safe to repeat, a refused connection a few times, all within the caller's
// deadline and stopped by its cancellation.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/result.h"
#include "providers/aws/http/http_transport.h"
#include "providers/kubernetes/client/api_error.h"
#include "providers/kubernetes/config/kubeconfig.h"
#include "providers/provider.h"

namespace strata::kubernetes {

using Json = nlohmann::json;
template <typename T>
using ApiResult = base::Result<T, ApiError>;

struct ApiRequest {
  std::string method = "GET";
  //! The API path ("/apis/apps/v1/namespaces/x/deployments/y"), not yet percent-encoded.
  std::string path;
  //! Query parameters, not yet encoded.
  std::vector<std::pair<std::string, std::string>> query;
  std::string body;
  std::string content_type;  //!< "application/apply-patch+yaml", ...; empty without a body
  //! Sending it again cannot do anything twice (GET, DELETE, server-side apply): retried
  //! after 5xx and lost answers. Others are retried only when they were never sent.
  bool idempotent = true;
};

//! A GET of `path`.
inline ApiRequest GetRequest(std::string path) {
  ApiRequest r;
  r.path = std::move(path);
  return r;
}

//! The retry rules; tests shorten them.
struct RetryPolicy {
  int max_attempts = 5;
  std::chrono::milliseconds base_delay{200};
  std::chrono::milliseconds max_delay{5000};
  std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
};

class ApiClient {
 public:
  //! `transport` carries the connection's TLS settings (MakeTransport); `connection`'s
  //! server and bearer token are used here.
  ApiClient(KubeConnection connection, std::shared_ptr<aws::HttpTransport> transport, RetryPolicy retry = {});

  //! Sends `request`; a 2xx answer's body parsed as JSON (null for an empty body), else the
  //! error. Never throws for what the server or network does.
  ApiResult<Json> Call(const OperationContext& ctx, const ApiRequest& request) const;

  const KubeConnection& connection() const { return connection_; }

 private:
  aws::HttpRequest ToHttp(const ApiRequest& request) const;

  KubeConnection connection_;
  std::shared_ptr<aws::HttpTransport> transport_;
  RetryPolicy retry_;
};

//! The libcurl transport for `connection`: its CA (else the system's roots), client
//! certificate, and insecure only when the connection says so.
std::shared_ptr<aws::HttpTransport> MakeTransport(const KubeConnection& connection);

//! Percent-encodes a path segment or query value (RFC 3986 unreserved characters kept).
std::string UrlEncode(const std::string& s);

}  // namespace strata::kubernetes
