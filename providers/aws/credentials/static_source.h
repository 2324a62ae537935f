#pragma once
// The first two links of the chain: explicit provider settings and the environment
// variables AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN.

#include <memory>
#include <optional>

#include "providers/aws/credentials/credential_source.h"
#include "providers/aws/credentials/environment.h"

namespace strata::aws {

//! Keys given in the provider's settings (access_key / secret_key / token).
class ExplicitCredentialsSource final : public CredentialSource {
 public:
  explicit ExplicitCredentialsSource(std::optional<Credentials> creds) : creds_(std::move(creds)) {}
  std::string Name() const override { return "explicit provider settings"; }
  SourceResult Resolve() override;

 private:
  std::optional<Credentials> creds_;
};

//! AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY [+ AWS_SESSION_TOKEN]. One without the
//! other is a failure (botocore's PartialCredentialsError). `skip_reason` non-empty
//! disables the source (a profile was chosen explicitly in the provider settings).
class EnvironmentCredentialsSource final : public CredentialSource {
 public:
  EnvironmentCredentialsSource(std::shared_ptr<const Environment> env, std::string skip_reason = "")
      : env_(std::move(env)), skip_reason_(std::move(skip_reason)) {}
  std::string Name() const override { return "environment variables"; }
  SourceResult Resolve() override;

 private:
  std::shared_ptr<const Environment> env_;
  std::string skip_reason_;
};

}  // namespace strata::aws
