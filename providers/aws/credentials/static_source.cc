#include "providers/aws/credentials/static_source.h"

namespace strata::aws {

SourceResult ExplicitCredentialsSource::Resolve() {
  if (!creds_ || (creds_->access_key_id.empty() && creds_->secret_access_key.empty()))
    return SourceResult::NotFound("access_key/secret_key not set");
  if (!creds_->HasKeys())
    return SourceResult::Failed(AwsError::Client(
        error_codes::kInvalidConfig,
        "provider settings give only one of access_key and secret_key; both are required"));
  Credentials c = *creds_;
  c.source = "provider settings";
  return SourceResult::Found(std::move(c));
}

SourceResult EnvironmentCredentialsSource::Resolve() {
  if (!skip_reason_.empty()) return SourceResult::NotFound(skip_reason_);
  auto key = env_->GetNonEmptyEnv("AWS_ACCESS_KEY_ID");
  auto secret = env_->GetNonEmptyEnv("AWS_SECRET_ACCESS_KEY");
  if (!key && !secret) return SourceResult::NotFound("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set");
  if (!key || !secret)
    return SourceResult::Failed(AwsError::Client(
        error_codes::kInvalidConfig,
        std::string(key ? "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"
                        : "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not")));
  Credentials c;
  c.access_key_id = *key;
  c.secret_access_key = *secret;
  c.session_token = env_->GetNonEmptyEnv("AWS_SESSION_TOKEN").value_or("");
  c.source = "environment";
  return SourceResult::Found(std::move(c));
}

}  // namespace strata::aws
