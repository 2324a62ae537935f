#include "providers/aws/credentials/profile_sources.h"

#include <set>

#include "providers/aws/credentials/imds_source.h"
#include "providers/aws/credentials/static_source.h"
#include "providers/aws/sts/sts_operations.h"

namespace strata::aws {
namespace {

constexpr int kMaxRoleChain = 8;

std::optional<int> ParseDuration(const ProfileSettings& s) {
  auto v = GetSetting(s, "duration_seconds");
  if (!v) return std::nullopt;
  try {
    return std::stoi(*v);
  } catch (...) {
    return std::nullopt;
  }
}

SourceResult StaticKeys(const ProfileSettings& s, const std::string& source) {
  auto key = GetSetting(s, "aws_access_key_id");
  auto secret = GetSetting(s, "aws_secret_access_key");
  if (!key && !secret) return SourceResult::NotFound("no aws_access_key_id/aws_secret_access_key");
  if (!key || !secret)
    return SourceResult::Failed(AwsError::Client(
        error_codes::kInvalidConfig,
        source + " has only one of aws_access_key_id and aws_secret_access_key"));
  Credentials c;
  c.access_key_id = *key;
  c.secret_access_key = *secret;
  c.session_token = GetSetting(s, "aws_session_token").value_or("");
  c.source = source;
  return SourceResult::Found(std::move(c));
}

Result<Credentials> ToResult(SourceResult r, const std::string& what) {
  if (r.kind == SourceResult::Kind::Found) return std::move(r.credentials);
  if (r.kind == SourceResult::Kind::Failed) return std::move(r.error);
  return AwsError::Client(error_codes::kNoCredentials, what + ": " + r.reason);
}

Result<Credentials> WebIdentity(const CredentialContext& ctx, const std::string& token_file,
                                const std::string& role_arn, std::string session_name,
                                const std::string& region) {
  auto token = ctx.env->ReadFile(ctx.env->ExpandHome(token_file));
  if (!token)
    return AwsError::Client(error_codes::kInvalidConfig,
                            "cannot read web identity token file " + token_file);
  while (!token->empty() && (token->back() == '\n' || token->back() == '\r')) token->pop_back();
  if (session_name.empty()) session_name = ctx.DefaultSessionName();
  auto sts = ctx.MakeStsClient(nullptr, region);
  return AssumeRoleWithWebIdentity(*sts, {role_arn, session_name, *token, std::nullopt});
}

// Resolves the credentials of `name`, assuming roles as configured (recursive).
class ProfileResolver {
 public:
  ProfileResolver(const CredentialContext& ctx, const SharedConfig& config)
      : ctx_(ctx), config_(config) {}

  Result<Credentials> Resolve(const std::string& name, int depth) {
    const ProfileSettings* s = config_.Find(name);
    if (s == nullptr)
      return AwsError::Client(error_codes::kInvalidConfig, "profile \"" + name + "\" not found in " +
                                                               config_.credentials_path + " or " +
                                                               config_.config_path);
    if (depth > kMaxRoleChain || !visiting_.insert(name).second)
      return AwsError::Client(error_codes::kInvalidConfig,
                              "profile \"" + name + "\": source_profile chain loops");
    auto role_arn = GetSetting(*s, "role_arn");
    if (role_arn && GetSetting(*s, "web_identity_token_file"))
      return WebIdentity(ctx_, *GetSetting(*s, "web_identity_token_file"), *role_arn,
                         GetSetting(*s, "role_session_name").value_or(""),
                         GetSetting(*s, "region").value_or(""));
    if (role_arn && (GetSetting(*s, "source_profile") || GetSetting(*s, "credential_source")))
      return AssumeFrom(name, *s, *role_arn, depth);
    return ToResult(StaticKeys(*s, "profile " + name), "profile \"" + name + "\"");
  }

 private:
  Result<Credentials> SourceCredentials(const std::string& name, const ProfileSettings& s,
                                        int depth) {
    if (auto source_profile = GetSetting(s, "source_profile")) {
      // A profile naming itself uses its own static keys (botocore does the same).
      if (*source_profile == name)
        return ToResult(StaticKeys(s, "profile " + name), "profile \"" + name + "\"");
      return Resolve(*source_profile, depth + 1);
    }
    std::string source = *GetSetting(s, "credential_source");
    if (source == "Environment")
      return ToResult(EnvironmentCredentialsSource(ctx_.env).Resolve(),
                      "credential_source Environment");
    if (source == "Ec2InstanceMetadata")
      return ToResult(ImdsCredentialsSource(ctx_).Resolve(), "credential_source Ec2InstanceMetadata");
    return AwsError::Client(error_codes::kInvalidConfig, "profile \"" + name +
                                                             "\": unsupported credential_source \"" +
                                                             source + "\"");
  }

  Result<Credentials> AssumeFrom(const std::string& name, const ProfileSettings& s,
                                 const std::string& role_arn, int depth) {
    if (GetSetting(s, "mfa_serial"))
      return AwsError::Client(error_codes::kInvalidConfig,
                              "profile \"" + name +
                                  "\" needs an MFA code (mfa_serial), which Strata cannot prompt for");
    auto source = SourceCredentials(name, s, depth);
    if (!source.ok()) return source.error();
    AssumeRoleInput input;
    input.role_arn = role_arn;
    input.session_name = GetSetting(s, "role_session_name").value_or(ctx_.DefaultSessionName());
    input.external_id = GetSetting(s, "external_id").value_or("");
    input.duration_seconds = ParseDuration(s);
    auto sts = ctx_.MakeStsClient(std::make_shared<StaticCredentialsProvider>(*source),
                                  GetSetting(s, "region").value_or(""));
    auto creds = AssumeRole(*sts, input);
    if (creds.ok()) creds->source = "profile " + name + " (assumed role " + role_arn + ")";
    return creds;
  }

  const CredentialContext& ctx_;
  const SharedConfig& config_;
  std::set<std::string> visiting_;
};

}  // namespace

ProfileChoice ChooseProfile(const Environment& env, const std::string& configured_profile) {
  if (!configured_profile.empty()) return {configured_profile, true, "provider settings"};
  if (auto p = env.GetNonEmptyEnv("AWS_PROFILE")) return {*p, true, "AWS_PROFILE"};
  if (auto p = env.GetNonEmptyEnv("AWS_DEFAULT_PROFILE")) return {*p, true, "AWS_DEFAULT_PROFILE"};
  return {"default", false, "default"};
}

std::string AssumeRoleProfileSource::Name() const {
  return "profile \"" + profile_.name + "\" role (role_arn + source_profile/credential_source)";
}

SourceResult AssumeRoleProfileSource::Resolve() {
  SharedConfig config = LoadSharedConfig(*ctx_.env);
  const ProfileSettings* s = config.Find(profile_.name);
  if (s == nullptr) return SourceResult::NotFound("profile not found");
  if (!GetSetting(*s, "role_arn") ||
      (!GetSetting(*s, "source_profile") && !GetSetting(*s, "credential_source")))
    return SourceResult::NotFound("no role_arn with source_profile or credential_source");
  auto creds = ProfileResolver(ctx_, config).Resolve(profile_.name, 0);
  if (!creds.ok()) return SourceResult::Failed(creds.error());
  return SourceResult::Found(std::move(creds).value());
}

SourceResult WebIdentitySource::Resolve() {
  auto token_file = ctx_.env->GetNonEmptyEnv("AWS_WEB_IDENTITY_TOKEN_FILE");
  auto role_arn = ctx_.env->GetNonEmptyEnv("AWS_ROLE_ARN");
  std::string session = ctx_.env->GetNonEmptyEnv("AWS_ROLE_SESSION_NAME").value_or("");
  std::string region;
  if (!token_file || !role_arn) {
    SharedConfig config = LoadSharedConfig(*ctx_.env);
    const ProfileSettings* s = config.Find(profile_.name);
    if (s == nullptr || !GetSetting(*s, "web_identity_token_file") || !GetSetting(*s, "role_arn")) {
      if (token_file || role_arn)
        return SourceResult::NotFound(token_file ? "AWS_WEB_IDENTITY_TOKEN_FILE set but AWS_ROLE_ARN not"
                                                 : "AWS_ROLE_ARN set but AWS_WEB_IDENTITY_TOKEN_FILE not");
      return SourceResult::NotFound(
          "AWS_WEB_IDENTITY_TOKEN_FILE/AWS_ROLE_ARN not set and profile \"" + profile_.name +
          "\" has no web_identity_token_file");
    }
    token_file = GetSetting(*s, "web_identity_token_file");
    role_arn = GetSetting(*s, "role_arn");
    session = GetSetting(*s, "role_session_name").value_or("");
    region = GetSetting(*s, "region").value_or("");
  }
  auto creds = WebIdentity(ctx_, *token_file, *role_arn, session, region);
  if (!creds.ok()) return SourceResult::Failed(creds.error());
  return SourceResult::Found(std::move(creds).value());
}

std::string SharedFileSource::Name() const {
  return "profile \"" + profile_.name + "\" in the " +
         (file_ == File::Credentials ? "shared credentials file" : "config file");
}

SourceResult SharedFileSource::Resolve() {
  SharedConfig config = LoadSharedConfig(*ctx_.env);
  const std::string& path = file_ == File::Credentials ? config.credentials_path : config.config_path;
  bool found = file_ == File::Credentials ? config.credentials_file_found : config.config_file_found;
  if (file_ == File::Credentials && profile_.named_explicitly && !config.Find(profile_.name))
    return SourceResult::Failed(AwsError::Client(
        error_codes::kInvalidConfig, "profile \"" + profile_.name + "\" (from " + profile_.origin +
                                         ") not found in " + config.credentials_path + " or " +
                                         config.config_path));
  if (!found) return SourceResult::NotFound(path + " does not exist");
  const ProfileMap& profiles = file_ == File::Credentials ? config.credentials_profiles
                                                          : config.config_profiles;
  auto it = profiles.find(profile_.name);
  if (it == profiles.end()) return SourceResult::NotFound("no such profile in " + path);
  SourceResult r = StaticKeys(it->second, "profile " + profile_.name + " (" + path + ")");
  if (r.kind == SourceResult::Kind::NotFound) r.reason += " in " + path;
  return r;
}

}  // namespace strata::aws
