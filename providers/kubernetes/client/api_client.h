#pragma once
// ApiClient: calls to one Kubernetes API server — the connection's URL (which may carry a
// path, as the sandbox's /clusters/<name> does), its TLS settings and credentials (a static
// token, or an exec plugin's answer fetched again once after a 401) — with
// the retries kube clients make: 429 after Retry-After, 5xx and lost connections for calls
// that are safe to repeat, a refused connection a few times, all within the caller's
// deadline and stopped by its cancellation.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/result.h"
#include "providers/aws/http/http_transport.h"
#include "providers/kubernetes/client/api_error.h"
#include "providers/kubernetes/client/credential_source.h"
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

//! Builds the transport for a connection: MakeTransport; tests give a fake.
using TransportFactory = std::function<std::shared_ptr<aws::HttpTransport>(const KubeConnection&)>;

//! How an ApiClient authenticates beyond what its transport was built with.
struct ClientAuth {
  //! Each request's credential; null: the connection's static token.
  std::shared_ptr<CredentialSource> credentials;
  //! Builds a new transport when the credential brings a client certificate other than the
  //! one the current transport presents (a plugin's rotated certificate); null: MakeTransport.
  TransportFactory make_transport;
};

class ApiClient {
 public:
  //! `transport` carries the connection's TLS settings and client certificate
  //! (MakeTransport); `connection`'s server is used here, and its bearer token unless `auth`
  //! names another source of credentials.
  ApiClient(KubeConnection connection, std::shared_ptr<aws::HttpTransport> transport, RetryPolicy retry = {},
            ClientAuth auth = {});

  //! Sends `request`; a 2xx answer's body parsed as JSON (null for an empty body), else the
  //! error. A 401 makes the credential source fetch a new credential (an exec plugin runs
  //! again) and the call is sent once more with it. Never throws for what the server,
  //! network or plugin does; a plugin's failure is an ApiError with http_status 0.
  ApiResult<Json> Call(const OperationContext& ctx, const ApiRequest& request) const;

  const KubeConnection& connection() const { return connection_; }

 private:
  aws::HttpRequest ToHttp(const ApiRequest& request, const std::string& token) const;
  //! The transport that presents `credential`'s client certificate (built anew when it changed).
  std::shared_ptr<aws::HttpTransport> TransportFor(const Credential& credential) const;

  KubeConnection connection_;
  RetryPolicy retry_;
  std::shared_ptr<CredentialSource> credentials_;
  TransportFactory make_transport_;
  mutable std::mutex transport_mu_;
  mutable std::shared_ptr<aws::HttpTransport> transport_;
  mutable std::string transport_certificate_;  // the client certificate transport_ presents
};

//! The libcurl transport for `connection`: its CA (else the system's roots), client
//! certificate, and insecure only when the connection says so.
std::shared_ptr<aws::HttpTransport> MakeTransport(const KubeConnection& connection);

//! Percent-encodes a path segment or query value (RFC 3986 unreserved characters kept).
std::string UrlEncode(const std::string& s);

}  // namespace strata::kubernetes
