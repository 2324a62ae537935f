#pragma once
// EC2 instance metadata (IMDSv2): PUT /latest/api/token, then GET the role name and its
// credentials under /latest/meta-data/iam/security-credentials/.
// AWS_EC2_METADATA_DISABLED=true turns it off; AWS_EC2_METADATA_SERVICE_ENDPOINT
// (or AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE=IPv6) chooses the endpoint.

#include "providers/aws/credentials/credential_context.h"
#include "providers/aws/credentials/credential_source.h"

namespace strata::aws {

class ImdsCredentialsSource final : public CredentialSource {
 public:
  explicit ImdsCredentialsSource(CredentialContext ctx) : ctx_(std::move(ctx)) {}
  std::string Name() const override { return "EC2 instance metadata (IMDSv2)"; }
  //! Unreachable service, no role or a bad answer are all "not found" (with the
  //! reason): only an EC2 instance with a role has this source.
  SourceResult Resolve() override;

  //! The endpoint that would be used (no trailing slash).
  std::string Endpoint() const;

 private:
  CredentialContext ctx_;
};

}  // namespace strata::aws
