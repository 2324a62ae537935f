#include "providers/aws/sts/sts_operations.h"

namespace strata::aws {
namespace {
constexpr const char* kStsVersion = "2011-06-15";
}

Result<Credentials> CredentialsFromStsResult(const XmlResponse& response, std::string source) {
  Credentials creds;
  creds.access_key_id = XmlText(response.result, "Credentials/AccessKeyId");
  creds.secret_access_key = XmlText(response.result, "Credentials/SecretAccessKey");
  creds.session_token = XmlText(response.result, "Credentials/SessionToken");
  creds.source = std::move(source);
  TimePoint expiration;
  if (ParseRfc3339(XmlText(response.result, "Credentials/Expiration"), &expiration))
    creds.expiration = expiration;
  if (!creds.HasKeys()) {
    AwsError e = AwsError::Client(error_codes::kMalformedResponse,
                                  "STS response has no Credentials/AccessKeyId and SecretAccessKey");
    e.request_id = response.request_id;
    return e;
  }
  return creds;
}

Result<Credentials> AssumeRole(const AwsClient& sts, const AssumeRoleInput& input) {
  QueryRequest call{"AssumeRole", kStsVersion, {}};
  call.Add("RoleArn", input.role_arn).Add("RoleSessionName", input.session_name);
  if (!input.external_id.empty()) call.Add("ExternalId", input.external_id);
  if (input.duration_seconds) call.Add("DurationSeconds", std::to_string(*input.duration_seconds));
  auto response = sts.Query("sts", call);
  if (!response.ok()) return response.error();
  return CredentialsFromStsResult(*response, "assumed role " + input.role_arn);
}

Result<Credentials> AssumeRoleWithWebIdentity(const AwsClient& sts,
                                              const AssumeRoleWithWebIdentityInput& input) {
  QueryRequest call{"AssumeRoleWithWebIdentity", kStsVersion, {}};
  call.Add("RoleArn", input.role_arn)
      .Add("RoleSessionName", input.session_name)
      .Add("WebIdentityToken", input.web_identity_token);
  if (input.duration_seconds) call.Add("DurationSeconds", std::to_string(*input.duration_seconds));
  CallOptions options;
  options.unsigned_request = true;
  options.retry_also.push_back(RetryOnError("IDPCommunicationError"));
  auto response = sts.Query("sts", call, options);
  if (!response.ok()) return response.error();
  return CredentialsFromStsResult(*response, "web identity role " + input.role_arn);
}

Result<CallerIdentity> GetCallerIdentity(const AwsClient& sts) {
  auto response = sts.Query("sts", QueryRequest{"GetCallerIdentity", kStsVersion, {}});
  if (!response.ok()) return response.error();
  return CallerIdentity{XmlText(response->result, "Account"), XmlText(response->result, "Arn"),
                        XmlText(response->result, "UserId")};
}

}  // namespace strata::aws
