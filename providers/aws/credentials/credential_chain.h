#pragma once
// The default credential chain, in the AWS CLI's order:
//   1. explicit provider settings (access_key / secret_key / token)
//   2. environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN
//      (skipped when the provider settings name a profile, like the CLI's --profile)
//   3. the profile's role: role_arn + source_profile / credential_source (sts:AssumeRole)
//   4. web identity: AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN [+ AWS_ROLE_SESSION_NAME],
//      or the profile's web_identity_token_file (sts:AssumeRoleWithWebIdentity)
//   5. the profile's keys in the shared credentials file (AWS_SHARED_CREDENTIALS_FILE)
//   6. the profile's keys in the config file (AWS_CONFIG_FILE, "[profile x]" sections)
//   7. EC2 instance metadata, IMDSv2
// The profile is the provider's `profile`, else AWS_PROFILE, else "default".

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "providers/aws/credentials/credential_context.h"
#include "providers/aws/credentials/credential_source.h"

namespace strata::aws {

//! Walks its sources in order and caches what it finds. Temporary credentials are
//! refreshed `refresh_margin` before they expire; if that refresh fails while the old
//! ones are still valid, the old ones are used. Thread-safe (one refresh at a time).
class CredentialChain final : public CredentialsProvider {
 public:
  CredentialChain(std::vector<std::unique_ptr<CredentialSource>> sources,
                  std::shared_ptr<Clock> clock, Duration refresh_margin = std::chrono::minutes(5));

  //! The first source's credentials; a failing source stops the walk with its error;
  //! when no source has any, a NoCredentialProviders error lists each source tried and
  //! why it gave nothing. No secret ever appears in an error.
  Result<Credentials> GetCredentials() override;

  //! Names of the sources, in order (for diagnostics).
  std::vector<std::string> SourceNames() const;

 private:
  Result<Credentials> ResolveUncached();

  std::vector<std::unique_ptr<CredentialSource>> sources_;
  std::shared_ptr<Clock> clock_;
  Duration refresh_margin_;
  std::mutex mu_;
  std::optional<Credentials> cached_;
};

//! Provider settings that shape the chain.
struct CredentialChainSettings {
  std::optional<Credentials> explicit_credentials;  //!< access_key / secret_key / token
  std::string profile;                              //!< explicit profile; "" = AWS_PROFILE/default
};

//! Builds the default chain above. `ctx.region` and `ctx.endpoints` configure STS.
std::shared_ptr<CredentialChain> MakeDefaultCredentialChain(const CredentialChainSettings& settings,
                                                            const CredentialContext& ctx);

}  // namespace strata::aws
