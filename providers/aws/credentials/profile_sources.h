#pragma once
// The chain links that read the shared files (~/.aws/credentials, ~/.aws/config) and
// the web identity one, in the AWS CLI's order:
//   AssumeRoleProfileSource   profile with role_arn + source_profile / credential_source
//   WebIdentitySource         AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN, or the
//                             profile's web_identity_token_file + role_arn
//   SharedFileSource          static keys of the profile in the credentials file, then
//                             (a second instance) in the config file

#include <string>

#include "providers/aws/credentials/credential_context.h"
#include "providers/aws/credentials/credential_source.h"
#include "providers/aws/credentials/shared_config.h"

namespace strata::aws {

//! Which profile the chain reads: the provider's `profile` setting (explicit), else
//! AWS_PROFILE, else AWS_DEFAULT_PROFILE, else "default".
struct ProfileChoice {
  std::string name;
  bool named_explicitly = false;  //!< false only for the implicit "default"
  std::string origin;             //!< "provider settings", "AWS_PROFILE", "default"
};
ProfileChoice ChooseProfile(const Environment& env, const std::string& configured_profile);

class AssumeRoleProfileSource final : public CredentialSource {
 public:
  AssumeRoleProfileSource(CredentialContext ctx, ProfileChoice profile)
      : ctx_(std::move(ctx)), profile_(std::move(profile)) {}
  std::string Name() const override;
  //! Chains of roles are followed (source_profile may itself assume a role); a cycle,
  //! a missing source profile, mfa_serial or an STS error are failures.
  SourceResult Resolve() override;

 private:
  CredentialContext ctx_;
  ProfileChoice profile_;
};

class WebIdentitySource final : public CredentialSource {
 public:
  WebIdentitySource(CredentialContext ctx, ProfileChoice profile)
      : ctx_(std::move(ctx)), profile_(std::move(profile)) {}
  std::string Name() const override { return "web identity token"; }
  SourceResult Resolve() override;

 private:
  CredentialContext ctx_;
  ProfileChoice profile_;
};

class SharedFileSource final : public CredentialSource {
 public:
  enum class File { Credentials, Config };
  SharedFileSource(CredentialContext ctx, ProfileChoice profile, File file)
      : ctx_(std::move(ctx)), profile_(std::move(profile)), file_(file) {}
  std::string Name() const override;
  //! A named profile that exists in neither file is a failure (reported by the
  //! credentials-file instance), as in the AWS CLI.
  SourceResult Resolve() override;

 private:
  CredentialContext ctx_;
  ProfileChoice profile_;
  File file_;
};

}  // namespace strata::aws
