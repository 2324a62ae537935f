#pragma once
// The STS operations the credential chain and the EKS token need (query protocol,
// version 2011-06-15).

#include <optional>
#include <string>

#include "providers/aws/signing/credentials.h"
#include "providers/aws/client/aws_client.h"

namespace strata::aws {

struct AssumeRoleInput {
  std::string role_arn;
  std::string session_name;
  std::string external_id;              //!< empty: not sent
  std::optional<int> duration_seconds;  //!< nullopt: the role's default
};

//! sts:AssumeRole, signed with the client's credentials.
Result<Credentials> AssumeRole(const AwsClient& sts, const AssumeRoleInput& input);

struct AssumeRoleWithWebIdentityInput {
  std::string role_arn;
  std::string session_name;
  std::string web_identity_token;  //!< the OIDC token (contents of the token file)
  std::optional<int> duration_seconds;
};

//! sts:AssumeRoleWithWebIdentity — an unsigned call; the token is the proof.
Result<Credentials> AssumeRoleWithWebIdentity(const AwsClient& sts,
                                              const AssumeRoleWithWebIdentityInput& input);

struct CallerIdentity {
  std::string account;
  std::string arn;
  std::string user_id;
};

//! sts:GetCallerIdentity.
Result<CallerIdentity> GetCallerIdentity(const AwsClient& sts);

//! Reads <Credentials> (AccessKeyId, SecretAccessKey, SessionToken, Expiration) from an
//! AssumeRole* result node.
Result<Credentials> CredentialsFromStsResult(const XmlResponse& response, std::string source);

}  // namespace strata::aws
