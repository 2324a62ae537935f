#pragma once
// What credential sources need from the outside world: the environment/file seam, the
// network, the clock, and how to reach STS.

#include <map>
#include <memory>
#include <string>

#include "providers/aws/credentials/environment.h"
#include "providers/aws/client/aws_client.h"

namespace strata::aws {

struct CredentialContext {
  std::shared_ptr<const Environment> env;
  std::shared_ptr<HttpTransport> transport;
  std::shared_ptr<Clock> clock;
  std::shared_ptr<RandomSource> random;
  std::string region;                           //!< region of the STS client
  std::map<std::string, std::string> endpoints;  //!< the provider's overrides ("sts")
  RetryOptions sts_retry{3, Duration(200), Duration(5000)};
  Duration metadata_timeout{1000};  //!< IMDS: per request (botocore's default: 1 s)

  //! An STS client signing with `creds` (null: for unsigned calls only). The region is
  //! `region_override`, else `region`, else us-east-1.
  std::unique_ptr<AwsClient> MakeStsClient(std::shared_ptr<CredentialsProvider> creds,
                                           const std::string& region_override = "") const;
  //! A default session name: "strata-<unix milliseconds>".
  std::string DefaultSessionName() const;
};

}  // namespace strata::aws
