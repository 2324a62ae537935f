#include "providers/aws/credentials/credential_context.h"

namespace strata::aws {

std::unique_ptr<AwsClient> CredentialContext::MakeStsClient(
    std::shared_ptr<CredentialsProvider> creds, const std::string& region_override) const {
  AwsClientConfig config;
  config.region = !region_override.empty() ? region_override : !region.empty() ? region : "us-east-1";
  config.endpoints = endpoints;
  config.retry = sts_retry;
  config.http_timeout = Duration(std::chrono::seconds(30));
  return std::make_unique<AwsClient>(config,
                                     AwsClientDeps{transport, std::move(creds), clock, random});
}

std::string CredentialContext::DefaultSessionName() const {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock->Now().time_since_epoch());
  return "strata-" + std::to_string(ms.count());
}

}  // namespace strata::aws
