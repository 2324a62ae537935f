#include "providers/aws/client/aws_client.h"

#include <algorithm>

#include "providers/aws/signing/sigv4_signer.h"
#include "providers/aws/protocol/error_parser.h"
#include "providers/aws/protocol/json_protocol.h"
#include "providers/aws/protocol/rest_xml_protocol.h"

namespace strata::aws {
namespace {

SigningOptions SigningFor(const ResolvedEndpoint& endpoint, TimePoint now) {
  SigningOptions options;
  options.region = endpoint.signing_region;
  options.service = endpoint.signing_name;
  options.time = now;
  if (endpoint.s3_style_signing) {
    options.normalize_path = false;
    options.double_encode_path = false;
    options.add_content_sha256_header = true;
  }
  return options;
}

// Strips the query string so logged URLs cannot carry presigned parameters.
std::string LoggableUrl(const std::string& url) { return url.substr(0, url.find('?')); }

}  // namespace

AwsClient::AwsClient(AwsClientConfig config, AwsClientDeps deps)
    : config_(std::move(config)),
      deps_(std::move(deps)),
      resolver_(config_.region, config_.endpoints) {
  if (!deps_.clock) deps_.clock = std::make_shared<SystemClock>();
  if (!deps_.random) deps_.random = std::make_shared<SystemRandom>();
}

Result<ResolvedEndpoint> AwsClient::Endpoint(const std::string& service) const {
  return resolver_.Resolve(service);
}

Result<HttpResponse> AwsClient::Attempt(const ResolvedEndpoint& endpoint, HttpRequest request,
                                        const CallOptions& options, int attempt) const {
  const TimePoint now = deps_.clock->Now();
  request.timeout = config_.http_timeout;
  request.connect_timeout = config_.connect_timeout;
  if (options.deadline) {
    auto left = std::chrono::duration_cast<Duration>(*options.deadline - now);
    request.timeout = std::max(Duration(1), std::min(request.timeout, left));
    request.connect_timeout = std::min(request.connect_timeout, request.timeout);
  }
  if (!options.unsigned_request) {
    if (!deps_.credentials)
      return AwsError::Client(error_codes::kNoCredentials, "no credentials provider configured");
    Result<Credentials> creds = deps_.credentials->GetCredentials();
    if (!creds.ok()) return creds.error();
    auto signed_ok = SignRequest(request, *creds, SigningFor(endpoint, now));
    if (!signed_ok.ok()) return signed_ok.error();
  }
  TransportResult result = deps_.transport->Send(request);
  if (!result.ok()) {
    AwsError error = ErrorFromTransport(result.error());
    if (config_.log)
      config_.log(request.method + " " + LoggableUrl(request.url) + " -> " + error.code +
                  ", attempt " + std::to_string(attempt));
    return error;
  }
  HttpResponse& response = result.response();
  if (config_.log)
    config_.log(request.method + " " + LoggableUrl(request.url) + " -> " +
                std::to_string(response.status) + ", attempt " + std::to_string(attempt));
  if (response.status >= 200 && response.status < 300) return std::move(response);
  return ParseErrorResponse(response);
}

Result<HttpResponse> AwsClient::SendResolved(const ResolvedEndpoint& endpoint,
                                             const HttpRequest& request,
                                             const CallOptions& options) const {
  std::function<Result<HttpResponse>(int)> attempt = [&](int n) {
    return Attempt(endpoint, request, options, n);
  };
  return RunWithRetries(attempt, config_.retry, options, *deps_.clock, *deps_.random);
}

Result<HttpResponse> AwsClient::Send(const std::string& service, HttpRequest request,
                                     const CallOptions& options) const {
  auto endpoint = Endpoint(service);
  if (!endpoint.ok()) return endpoint.error();
  std::string relative = request.url;
  if (relative.empty() || relative.front() != '/') relative = "/" + relative;
  request.url = endpoint->url + relative;
  return SendResolved(*endpoint, request, options);
}

Result<XmlResponse> AwsClient::Query(const std::string& service, const QueryRequest& call,
                                     const CallOptions& options) const {
  auto endpoint = Endpoint(service);
  if (!endpoint.ok()) return endpoint.error();
  auto response = SendResolved(*endpoint, BuildQueryHttpRequest(call, endpoint->url), options);
  if (!response.ok()) return response.error();
  return ParseXmlResponse(*response, call.action);
}

Result<nlohmann::json> AwsClient::JsonRpc(const std::string& service, const JsonRpcRequest& call,
                                          const CallOptions& options) const {
  auto endpoint = Endpoint(service);
  if (!endpoint.ok()) return endpoint.error();
  auto response = SendResolved(*endpoint, BuildJsonRpcHttpRequest(call, endpoint->url), options);
  if (!response.ok()) return response.error();
  return ParseJsonResponse(*response);
}

Result<nlohmann::json> AwsClient::RestJson(const std::string& service, const RestJsonRequest& call,
                                           const CallOptions& options) const {
  auto endpoint = Endpoint(service);
  if (!endpoint.ok()) return endpoint.error();
  auto response = SendResolved(*endpoint, BuildRestJsonHttpRequest(call, endpoint->url), options);
  if (!response.ok()) return response.error();
  return ParseJsonResponse(*response);
}

Result<HttpResponse> AwsClient::RestXmlRaw(const std::string& service, const RestXmlRequest& call,
                                           const CallOptions& options) const {
  auto endpoint = Endpoint(service);
  if (!endpoint.ok()) return endpoint.error();
  BucketAddressing addressing =
      ChooseBucketAddressing(call.bucket, config_.s3_use_path_style, endpoint->overridden);
  return SendResolved(*endpoint, BuildRestXmlHttpRequest(call, endpoint->url, addressing), options);
}

Result<XmlResponse> AwsClient::RestXml(const std::string& service, const RestXmlRequest& call,
                                       const CallOptions& options) const {
  auto response = RestXmlRaw(service, call, options);
  if (!response.ok()) return response.error();
  return ParseRestXmlResponse(*response);
}

}  // namespace strata::aws
