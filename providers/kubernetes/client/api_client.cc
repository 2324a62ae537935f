#include "providers/kubernetes/client/api_client.h"

#include <algorithm>
#include <cctype>
#include <thread>

#include <fmt/format.h>

#include "providers/aws/http/curl_transport.h"

namespace strata::kubernetes {
namespace {

bool Retryable(const ApiError& error, bool idempotent) {
  if (error.http_status == 429) return true;  // the server did nothing: Too Many Requests
  if (error.http_status == 0) return idempotent || !error.outcome_unknown;
  return idempotent && error.http_status >= 500 && error.http_status != 501;
}

ApiError TransportFailure(const aws::TransportError& e, const std::string& server) {
  using Kind = aws::TransportError::Kind;
  ApiError error;
  error.outcome_unknown = e.kind == Kind::Lost || e.kind == Kind::Timeout;
  switch (e.kind) {
    case Kind::Connect:
      error.message = fmt::format("cannot reach the Kubernetes API server at {}: {} (is the cluster running, and "
                                  "is host / the kubeconfig's server right?)",
                                  server, e.message);
      break;
    case Kind::Tls:
      error.message = fmt::format("TLS with the Kubernetes API server at {} failed: {}", server, e.message);
      break;
    case Kind::Timeout:
      error.message = fmt::format("the Kubernetes API server at {} did not answer in time: {}", server, e.message);
      break;
    default:
      error.message = fmt::format("calling the Kubernetes API server at {} failed: {}", server, e.message);
  }
  return error;
}

// The wait before attempt `attempt` (1-based): Retry-After when the server gave one, else
// exponential backoff.
std::chrono::milliseconds Delay(const RetryPolicy& retry, const ApiError& error, int attempt) {
  if (error.retry_after_seconds) {
    return std::min(std::chrono::milliseconds(std::chrono::seconds(*error.retry_after_seconds)), retry.max_delay);
  }
  auto delay = retry.base_delay * (1 << std::min(attempt - 1, 10));
  return std::min(std::chrono::duration_cast<std::chrono::milliseconds>(delay), retry.max_delay);
}

// Sleeps `delay` in short steps; false when the caller cancelled or the deadline comes first.
bool Wait(const OperationContext& ctx, std::chrono::milliseconds delay) {
  auto until = OperationContext::Clock::now() + delay;
  if (ctx.deadline && until >= *ctx.deadline) return false;
  while (OperationContext::Clock::now() < until) {
    if (ctx.Cancelled()) return false;
    std::this_thread::sleep_for(std::min(std::chrono::milliseconds(50), delay));
  }
  return !ctx.Cancelled();
}

}  // namespace

std::string UrlEncode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += char(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::shared_ptr<aws::HttpTransport> MakeTransport(const KubeConnection& connection) {
  aws::CurlTransportOptions options;
  options.ca_pem = connection.ca_pem;
  options.client_certificate_pem = connection.client_certificate_pem;
  options.client_key_pem = connection.client_key_pem;
  options.insecure = connection.insecure;
  options.user_agent = "strata-kubernetes";
  options.trust_hint = connection.ca_pem.empty()
                           ? "checked against the system's trusted CAs: set cluster_ca_certificate, or the "
                             "kubeconfig's certificate-authority, to the cluster's CA"
                           : "checked against the cluster CA given by cluster_ca_certificate or the kubeconfig: "
                             "is it this cluster's CA?";
  return std::make_shared<aws::CurlTransport>(options);
}

ApiClient::ApiClient(KubeConnection connection, std::shared_ptr<aws::HttpTransport> transport, RetryPolicy retry,
                     ClientAuth auth)
    : connection_(std::move(connection)),
      retry_(retry),
      credentials_(auth.credentials ? std::move(auth.credentials) : StaticCredentials(connection_)),
      make_transport_(auth.make_transport ? std::move(auth.make_transport) : TransportFactory(MakeTransport)),
      transport_(std::move(transport)),
      transport_certificate_(connection_.client_certificate_pem) {
  while (!connection_.server.empty() && connection_.server.back() == '/') connection_.server.pop_back();
}

std::shared_ptr<aws::HttpTransport> ApiClient::TransportFor(const Credential& credential) const {
  std::lock_guard lock(transport_mu_);
  if (credential.client_certificate_pem.empty() || credential.client_certificate_pem == transport_certificate_) {
    return transport_;
  }
  KubeConnection with_certificate = connection_;
  with_certificate.client_certificate_pem = credential.client_certificate_pem;
  with_certificate.client_key_pem = credential.client_key_pem;
  transport_ = make_transport_(with_certificate);
  transport_certificate_ = credential.client_certificate_pem;
  return transport_;
}

aws::HttpRequest ApiClient::ToHttp(const ApiRequest& request, const std::string& token) const {
  aws::HttpRequest http;
  http.method = request.method;
  http.url = connection_.server + request.path;
  char separator = '?';
  for (const auto& [name, value] : request.query) {
    http.url += separator + UrlEncode(name) + "=" + UrlEncode(value);
    separator = '&';
  }
  http.headers.emplace_back("Accept", "application/json");
  if (!request.content_type.empty()) http.headers.emplace_back("Content-Type", request.content_type);
  if (!token.empty()) http.headers.emplace_back("Authorization", "Bearer " + token);
  http.body = request.body;
  http.timeout = retry_.request_timeout;
  return http;
}

ApiResult<Json> ApiClient::Call(const OperationContext& ctx, const ApiRequest& request) const {
  ApiError last;
  bool reauthenticated = false;
  for (int attempt = 1; attempt <= retry_.max_attempts; ++attempt) {
    if (ctx.Cancelled()) {
      last.message = "cancelled";
      return last;
    }
    auto credential = credentials_->Get(ctx);
    if (!credential) {
      ApiError error;
      error.message = credential.error();
      return error;
    }
    aws::TransportResult sent = TransportFor(*credential)->Send(ToHttp(request, credential->token));
    if (sent.ok() && sent.response().status / 100 == 2) {
      const std::string& body = sent.response().body;
      if (body.empty()) return Json();
      Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_discarded()) {
        ApiError error;
        error.http_status = sent.response().status;
        error.message = "the API server's answer is not JSON";
        return error;
      }
      return parsed;
    }
    if (sent.ok() && sent.response().status == 401 && !reauthenticated && credentials_->Rejected(*credential)) {
      // The credential expired early or was revoked: a new one, and the same call once more
      // (not counted as a retry: nothing was wrong with the call itself).
      ctx.Log(LogLevel::Debug, fmt::format("kubernetes {} {}: 401 Unauthorized; fetching new credentials",
                                           request.method, request.path));
      reauthenticated = true;
      --attempt;
      continue;
    }
    if (sent.ok()) {
      const aws::HttpResponse& r = sent.response();
      last = ParseStatusError(r.status, r.body, aws::FindHeader(r.headers, "Retry-After"));
    } else {
      last = TransportFailure(sent.error(), connection_.server);
    }
    bool tls = !sent.ok() && sent.error().kind == aws::TransportError::Kind::Tls;
    if (tls || !Retryable(last, request.idempotent) || attempt == retry_.max_attempts) break;
    ctx.Log(LogLevel::Debug, fmt::format("kubernetes {} {}: {}; retrying", request.method, request.path,
                                         last.Describe()));
    if (!Wait(ctx, Delay(retry_, last, attempt))) break;
  }
  return last;
}

}  // namespace strata::kubernetes
