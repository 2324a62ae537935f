#include "providers/aws/credentials/credential_chain.h"

#include "providers/aws/credentials/imds_source.h"
#include "providers/aws/credentials/profile_sources.h"
#include "providers/aws/credentials/static_source.h"

namespace strata::aws {

CredentialChain::CredentialChain(std::vector<std::unique_ptr<CredentialSource>> sources,
                                 std::shared_ptr<Clock> clock, Duration refresh_margin)
    : sources_(std::move(sources)), clock_(std::move(clock)), refresh_margin_(refresh_margin) {}

std::vector<std::string> CredentialChain::SourceNames() const {
  std::vector<std::string> names;
  for (const auto& s : sources_) names.push_back(s->Name());
  return names;
}

Result<Credentials> CredentialChain::GetCredentials() {
  std::lock_guard lock(mu_);
  const TimePoint now = clock_->Now();
  if (cached_ && (!cached_->expiration || now < *cached_->expiration - refresh_margin_))
    return *cached_;
  Result<Credentials> fresh = ResolveUncached();
  if (fresh.ok()) {
    cached_ = fresh.value();
    return fresh;
  }
  if (cached_ && cached_->expiration && now < *cached_->expiration) return *cached_;
  cached_.reset();
  return fresh;
}

Result<Credentials> CredentialChain::ResolveUncached() {
  std::string tried;
  int index = 0;
  for (const auto& source : sources_) {
    SourceResult r = source->Resolve();
    if (r.kind == SourceResult::Kind::Found) return std::move(r.credentials);
    if (r.kind == SourceResult::Kind::Failed) {
      AwsError e = std::move(r.error);
      e.message = source->Name() + ": " + e.message;
      return e;
    }
    tried += "\n  " + std::to_string(++index) + ". " + source->Name() + ": " + r.reason;
  }
  return AwsError::Client(error_codes::kNoCredentials,
                          "no AWS credentials found. Sources tried, in order:" + tried);
}

std::shared_ptr<CredentialChain> MakeDefaultCredentialChain(const CredentialChainSettings& settings,
                                                            const CredentialContext& ctx) {
  ProfileChoice profile = ChooseProfile(*ctx.env, settings.profile);
  std::string env_skip = settings.profile.empty()
                             ? ""
                             : "skipped: profile \"" + settings.profile +
                                   "\" is set in the provider settings";
  std::vector<std::unique_ptr<CredentialSource>> sources;
  sources.push_back(std::make_unique<ExplicitCredentialsSource>(settings.explicit_credentials));
  sources.push_back(std::make_unique<EnvironmentCredentialsSource>(ctx.env, env_skip));
  sources.push_back(std::make_unique<AssumeRoleProfileSource>(ctx, profile));
  sources.push_back(std::make_unique<WebIdentitySource>(ctx, profile));
  sources.push_back(
      std::make_unique<SharedFileSource>(ctx, profile, SharedFileSource::File::Credentials));
  sources.push_back(std::make_unique<SharedFileSource>(ctx, profile, SharedFileSource::File::Config));
  sources.push_back(std::make_unique<ImdsCredentialsSource>(ctx));
  return std::make_shared<CredentialChain>(std::move(sources), ctx.clock);
}

}  // namespace strata::aws
