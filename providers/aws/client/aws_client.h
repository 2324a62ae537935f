#pragma once
// AwsClient: one region's gateway to AWS. It resolves the service endpoint, fetches
// credentials, signs with SigV4, sends through the HttpTransport, maps failures to
// AwsError and retries what is retryable. Thread-safe: apply workers share one client.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "providers/aws/signing/credentials.h"
#include "providers/aws/client/endpoint_resolver.h"
#include "providers/aws/client/retry.h"
#include "providers/aws/core/clock.h"
#include "providers/aws/http/http_transport.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

// json_protocol.h: only the JSON services' callers (EKS) include it and nlohmann/json.hpp,
// which most of the provider (the query-protocol services) never parses.
struct JsonRpcRequest;
struct RestJsonRequest;
struct RestXmlRequest;

struct AwsClientConfig {
  std::string region;
  //! Per-service endpoint overrides (see EndpointResolver).
  std::map<std::string, std::string> endpoints;
  RetryOptions retry;
  //! Timeout of one HTTP exchange (capped by the call's deadline).
  Duration http_timeout{std::chrono::seconds(60)};
  Duration connect_timeout{std::chrono::seconds(10)};
  //! Debug log of each attempt ("POST https://sts... -> 200, attempt 1"): methods,
  //! URLs, statuses and error codes only — never headers, bodies or credentials.
  std::function<void(const std::string&)> log;
  //! S3: address every bucket in the path (Terraform's s3_use_path_style); otherwise
  //! virtual-hosted unless the endpoint is an override (rest_xml_protocol.h).
  bool s3_use_path_style = false;
};

//! The seams an AwsClient works through. `credentials` may be null only for clients
//! that make unsigned calls exclusively.
struct AwsClientDeps {
  std::shared_ptr<HttpTransport> transport;
  std::shared_ptr<CredentialsProvider> credentials;
  std::shared_ptr<Clock> clock;
  std::shared_ptr<RandomSource> random;
};

class AwsClient {
 public:
  AwsClient(AwsClientConfig config, AwsClientDeps deps);

  const std::string& region() const { return resolver_.region(); }
  const AwsClientConfig& config() const { return config_; }
  const AwsClientDeps& deps() const { return deps_; }
  Result<ResolvedEndpoint> Endpoint(const std::string& service) const;

  //! Sends `request` to `service`. `request.url` is relative to the service endpoint
  //! ("/clusters?maxResults=10"). Non-2xx responses become AwsError.
  Result<HttpResponse> Send(const std::string& service, HttpRequest request,
                            const CallOptions& options = {}) const;

  //! A query-protocol call (IAM, STS, EC2, ELBv2, Auto Scaling).
  Result<XmlResponse> Query(const std::string& service, const QueryRequest& call,
                            const CallOptions& options = {}) const;
  //! An x-amz-json-1.x call.
  Result<nlohmann::json> JsonRpc(const std::string& service, const JsonRpcRequest& call,
                                 const CallOptions& options = {}) const;
  //! A REST-JSON call (EKS, EFS).
  Result<nlohmann::json> RestJson(const std::string& service, const RestJsonRequest& call,
                                  const CallOptions& options = {}) const;

  //! A REST-XML call (Route 53, S3), its XML answer parsed (ParseRestXmlResponse).
  Result<XmlResponse> RestXml(const std::string& service, const RestXmlRequest& call,
                              const CallOptions& options = {}) const;
  //! The same call, answered with the raw response (S3's HeadBucket, GetObject: the answer
  //! is in headers or is not XML).
  Result<HttpResponse> RestXmlRaw(const std::string& service, const RestXmlRequest& call,
                                  const CallOptions& options = {}) const;

  //! Sends an already-built absolute-URL request to a resolved endpoint: signs each
  //! attempt afresh, retries, maps errors. The building block of the calls above.
  Result<HttpResponse> SendResolved(const ResolvedEndpoint& endpoint, const HttpRequest& request,
                                    const CallOptions& options) const;

 private:
  Result<HttpResponse> Attempt(const ResolvedEndpoint& endpoint, HttpRequest request,
                               const CallOptions& options, int attempt) const;

  AwsClientConfig config_;
  AwsClientDeps deps_;
  EndpointResolver resolver_;
};

}  // namespace strata::aws
