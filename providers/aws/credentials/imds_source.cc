#include "providers/aws/credentials/imds_source.h"

#include <nlohmann/json.hpp>

namespace strata::aws {
namespace {

constexpr const char* kCredentialsPath = "/latest/meta-data/iam/security-credentials/";

struct Fetch {
  bool ok = false;
  std::string body;
  std::string problem;
  int status = 0;
};

Fetch Get(const CredentialContext& ctx, HttpRequest request) {
  request.timeout = ctx.metadata_timeout;
  request.connect_timeout = ctx.metadata_timeout;
  TransportResult result = ctx.transport->Send(request);
  if (!result.ok()) return {false, "", result.error().message, 0};
  const HttpResponse& r = result.response();
  if (r.status != 200) return {false, "", "HTTP " + std::to_string(r.status), r.status};
  return {true, r.body, "", r.status};
}

}  // namespace

std::string ImdsCredentialsSource::Endpoint() const {
  std::string endpoint = ctx_.env->GetNonEmptyEnv("AWS_EC2_METADATA_SERVICE_ENDPOINT").value_or("");
  if (endpoint.empty()) {
    auto mode = ctx_.env->GetNonEmptyEnv("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
    endpoint = mode && EqualsIgnoreCase(*mode, "ipv6") ? "http://[fd00:ec2::254]"
                                                       : "http://169.254.169.254";
  }
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  return endpoint;
}

SourceResult ImdsCredentialsSource::Resolve() {
  if (auto disabled = ctx_.env->GetEnv("AWS_EC2_METADATA_DISABLED");
      disabled && EqualsIgnoreCase(*disabled, "true"))
    return SourceResult::NotFound("disabled by AWS_EC2_METADATA_DISABLED");
  const std::string endpoint = Endpoint();

  HttpRequest token_request{"PUT", endpoint + "/latest/api/token", {}, "", {}, {}};
  token_request.headers.emplace_back("X-aws-ec2-metadata-token-ttl-seconds", "21600");
  Fetch token = Get(ctx_, token_request);
  if (!token.ok)
    return SourceResult::NotFound("no IMDSv2 token from " + endpoint + ": " + token.problem);

  HttpHeaders auth = {{"X-aws-ec2-metadata-token", token.body}};
  Fetch role = Get(ctx_, HttpRequest{"GET", endpoint + kCredentialsPath, auth, "", {}, {}});
  if (!role.ok)
    return SourceResult::NotFound(role.status == 404 ? "no IAM role attached to the instance"
                                                     : "role lookup failed: " + role.problem);
  std::string role_name = role.body.substr(0, role.body.find_first_of("\r\n"));
  if (role_name.empty()) return SourceResult::NotFound("no IAM role attached to the instance");

  Fetch creds = Get(ctx_, HttpRequest{"GET", endpoint + kCredentialsPath + role_name, auth, "", {}, {}});
  if (!creds.ok)
    return SourceResult::NotFound("credentials of role " + role_name + " unavailable: " + creds.problem);
  auto json = nlohmann::json::parse(creds.body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return SourceResult::NotFound("credentials document is not JSON");
  auto field = [&](const char* name) {
    auto it = json.find(name);
    return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (std::string code = field("Code"); !code.empty() && code != "Success")
    return SourceResult::NotFound("instance metadata answered Code=" + code);
  Credentials c;
  c.access_key_id = field("AccessKeyId");
  c.secret_access_key = field("SecretAccessKey");
  c.session_token = field("Token");
  c.source = "instance metadata role " + role_name;
  TimePoint expiration;
  if (ParseRfc3339(field("Expiration"), &expiration)) c.expiration = expiration;
  if (!c.HasKeys()) return SourceResult::NotFound("credentials document lacks AccessKeyId/SecretAccessKey");
  return SourceResult::Found(std::move(c));
}

}  // namespace strata::aws
