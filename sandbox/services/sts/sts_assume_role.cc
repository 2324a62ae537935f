// Taking on an IAM role: AssumeRole (signed by the sandbox's key pair) and
// AssumeRoleWithWebIdentity (unsigned, carrying an OIDC token). The role must exist in
// the world's IAM; otherwise STS refuses with AccessDenied, as AWS does for a role that
// does not exist or does not trust the caller.

#include <cctype>
#include <optional>

#include "engine/base/base64.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_roles.h"
#include "sandbox/services/sts/sts_call.h"
#include "sandbox/services/sts/sts_credentials.h"

namespace strata::sandbox::sts {
namespace {

constexpr long long kMinDuration = 900;
constexpr long long kMaxDuration = 43200;
constexpr long long kDefaultDuration = 3600;

std::string SessionName(const StsCall& call) {
  std::string name = call.params.Length("RoleSessionName", 2, 64, true);
  for (char c : name) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '=' ||
              c == ',' || c == '.' || c == '@' || c == '-';
    if (!ok) {
      throw ValidationError("RoleSessionName", name,
                                 "Member must satisfy regular expression pattern: [\\w+=,.@-]*");
    }
  }
  return name;
}

//! The role `arn` names, or AccessDenied with `denial`.
Json RoleOrAccessDenied(const StsCall& call, const std::string& arn, const std::string& denial) {
  std::optional<Json> role = iam::FindRoleByArn(call.ctx.world, arn);
  if (!role) throw ApiError(403, "AccessDenied", denial);
  return *role;
}

std::chrono::seconds Duration(const StsCall& call, const Json& role) {
  long long duration =
      call.params.Integer("DurationSeconds", kMinDuration, kMaxDuration).value_or(kDefaultDuration);
  if (duration > role["MaxSessionDuration"].get<long long>()) {
    throw ApiError(400, "ValidationError",
                   "The requested DurationSeconds exceeds the MaxSessionDuration set for this "
                   "role.");
  }
  return std::chrono::seconds(duration);
}

//! Writes the credentials and <AssumedRoleUser> for a session `session` of `role`.
void AnswerAssumedRole(StsCall& call, const Json& role, const std::string& session,
                       std::chrono::seconds duration) {
  std::string arn = "arn:aws:sts::" + call.account() + ":assumed-role/" +
                    role["RoleName"].get<std::string>() + "/" + session;
  std::string user_id = role["RoleId"].get<std::string>() + ":" + session;
  TemporaryCredentials creds = IssueCredentials(call, duration, arn, user_id);
  WriteCredentials(call.result, creds);
  pugi::xml_node user = call.result.append_child("AssumedRoleUser");
  AddText(user, "AssumedRoleId", user_id);
  AddText(user, "Arn", arn);
}

void AssumeRole(StsCall& call) {
  std::string arn = call.params.Length("RoleArn", 20, 2048, true);
  std::string session = SessionName(call);
  call.params.Length("ExternalId", 2, 1224, false);
  Json role = RoleOrAccessDenied(call, arn,
                                 "User: " + SandboxUserArn(call.account()) +
                                     " is not authorized to perform: sts:AssumeRole on resource: " +
                                     arn);
  AnswerAssumedRole(call, role, session, Duration(call, role));
  if (call.params.Has("SourceIdentity")) {
    AddText(call.result, "SourceIdentity", call.params.Get("SourceIdentity"));
  }
}

//! The claims of a JWT ("header.payload.signature"), or an empty object when the token is
//! not one: the sandbox does not verify web identity tokens, it only reports them.
Json TokenClaims(const std::string& token) {
  size_t first = token.find('.');
  size_t second = first == std::string::npos ? first : token.find('.', first + 1);
  if (second == std::string::npos) return Json::object();
  auto payload = base::Base64Decode(token.substr(first + 1, second - first - 1), base::Base64Input::kLenient);
  if (!payload) return Json::object();
  Json claims = Json::parse(*payload, nullptr, /*allow_exceptions=*/false);
  return claims.is_object() ? claims : Json::object();
}

std::string Claim(const Json& claims, const char* name, const std::string& fallback) {
  if (!claims.contains(name)) return fallback;
  const Json& value = claims[name];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array() && !value.empty() && value[0].is_string()) return value[0].get<std::string>();
  return fallback;
}

void AssumeRoleWithWebIdentity(StsCall& call) {
  std::string arn = call.params.Length("RoleArn", 20, 2048, true);
  std::string session = SessionName(call);
  std::string token = call.params.Length("WebIdentityToken", 4, 20000, true);
  Json role = RoleOrAccessDenied(call, arn,
                                 "Not authorized to perform sts:AssumeRoleWithWebIdentity");
  std::chrono::seconds duration = Duration(call, role);
  Json claims = TokenClaims(token);
  std::string issuer = Claim(claims, "iss", "sandbox");
  const std::string https = "https://";
  if (issuer.compare(0, https.size(), https) == 0) issuer = issuer.substr(https.size());
  AnswerAssumedRole(call, role, session, duration);
  AddText(call.result, "SubjectFromWebIdentityToken", Claim(claims, "sub", session));
  AddText(call.result, "Audience", Claim(claims, "aud", "sts.amazonaws.com"));
  AddText(call.result, "Provider", issuer);
}

}  // namespace

void AddAssumeRoleActions(StsActionTable& table) {
  table["AssumeRole"] = AssumeRole;
  table["AssumeRoleWithWebIdentity"] = AssumeRoleWithWebIdentity;
}

}  // namespace strata::sandbox::sts
