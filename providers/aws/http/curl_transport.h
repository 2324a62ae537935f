#pragma once
// CurlTransport: HttpTransport over libcurl.
//
// - Connection reuse: a pool of easy handles; each keeps its own connection cache, and
//   a handle is used by one request at a time, so the transport is safe for any number
//   of concurrent callers (apply workers).
// - TLS peer and host verification are on unless `insecure` is set; `ca_bundle` (AWS_CA_BUNDLE
//   or the profile's ca_bundle) or `ca_pem` only replaces the trust store. A certificate that does not verify
//   is a Tls error whose message says what it was checked against and how to trust a CA.
// - Proxies: libcurl's own handling of http_proxy / https_proxy / no_proxy is kept.
// - No redirects are followed; no signals are used (CURLOPT_NOSIGNAL).

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "providers/aws/http/http_transport.h"

namespace strata::aws {

struct CurlTransportOptions {
  std::string ca_bundle;          //!< PEM file of trusted CAs; empty: the system store
  std::string ca_pem;             //!< PEM text of trusted CAs (a kubeconfig's CA data); wins over ca_bundle
  //! TLS client authentication (a kubeconfig's client certificate): PEM text, both or neither.
  std::string client_certificate_pem;
  std::string client_key_pem;
  //! No peer or host verification: only when the user wrote it (Kubernetes' insecure: true).
  bool insecure = false;
  //! Said after a server certificate that does not verify: how to trust its CA. Empty: the
  //! AWS settings (AWS_CA_BUNDLE, the profile's ca_bundle).
  std::string trust_hint;
  size_t max_idle_handles = 16;   //!< handles (and their connections) kept for reuse
  std::string user_agent = "strata-aws";
};

class CurlTransport final : public HttpTransport {
 public:
  explicit CurlTransport(CurlTransportOptions options = {});
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  TransportResult Send(const HttpRequest& request) override;

 private:
  void* AcquireHandle();
  void ReleaseHandle(void* handle);

  CurlTransportOptions options_;
  std::mutex mu_;
  std::vector<void*> idle_;  // CURL* kept opaque so curl.h stays out of this header
};

}  // namespace strata::aws
