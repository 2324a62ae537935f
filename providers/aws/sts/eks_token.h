#pragma once
// The EKS bearer token (what `aws eks get-token` prints): "k8s-aws-v1." + base64url
// (no padding) of a presigned STS GetCallerIdentity URL whose signature covers the
// header "x-k8s-aws-id: <cluster>". Checked against shared/testdata/eks-token.

#include <string>

#include "providers/aws/signing/credentials.h"
#include "providers/aws/core/clock.h"
#include "providers/aws/core/result.h"

namespace strata::aws {

struct EksTokenRequest {
  std::string cluster_id;  //!< cluster name (or id for local clusters)
  std::string region;      //!< signing region
  //! STS base URL; empty: https://sts.{region}.{partition suffix}. Pass the resolved
  //! (possibly overridden) STS endpoint to target an emulator.
  std::string sts_endpoint;
  TimePoint now;
};

struct EksToken {
  std::string token;         //!< "k8s-aws-v1.…"
  std::string presigned_url;
  TimePoint expiration;      //!< now + 14 minutes (STS honours the URL for 15)
  //! The client.authentication.k8s.io/v1beta1 ExecCredential JSON kubectl expects.
  std::string ExecCredentialJson() const;
};

//! Builds the token. X-Amz-Expires is 60 (what aws-cli and aws-iam-authenticator send);
//! the query is in canonical (sorted) order with X-Amz-Signature last.
Result<EksToken> MakeEksToken(const Credentials& creds, const EksTokenRequest& request);

}  // namespace strata::aws
