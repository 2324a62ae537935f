#pragma once
// Who an access key is. The sandbox knows two kinds of keys: its one configured key pair,
// which stands for the IAM user arn:aws:iam::<account>:user/sandbox, and the temporary
// credentials STS hands out (AssumeRole, AssumeRoleWithWebIdentity, GetSessionToken),
// recorded in the world under kind "sts_credentials" with the ARN and user id they stand
// for. Both the AWS front end (to tell services who calls, e.g. who created an EKS cluster)
// and the cluster endpoint (to check EKS bearer tokens) look keys up here.
//
// Not thread-safe: the caller holds whatever guards `world`.

#include <chrono>
#include <optional>
#include <string>

#include "sandbox/settings.h"

namespace strata::sandbox {

class World;

//! What STS GetCallerIdentity answers for a key.
struct CallerIdentity {
  std::string arn;      //!< "arn:aws:iam::111122223333:user/sandbox", "arn:aws:sts::…:assumed-role/R/s"
  std::string user_id;  //!< "AIDA…" for a user, "AROA…:session" for an assumed role
  std::string account;  //!< "111122223333"
};

//! An access key the sandbox accepts, with what a signature check needs.
struct AccessKeyRecord {
  std::string secret_access_key;
  //! Temporary credentials only: the session token a request must carry with the key
  //! (X-Amz-Security-Token), and when the key stops working.
  std::string session_token;
  std::optional<std::chrono::system_clock::time_point> expiration;
  CallerIdentity identity;
};

//! The record of `access_key`, or nullopt when the sandbox never issued it.
std::optional<AccessKeyRecord> LookUpAccessKey(const World& world, const SandboxSettings& settings,
                                               const std::string& access_key);

//! The sandbox key pair's identity: the IAM user "sandbox" of the account, whose unique id
//! ("AIDA" + 17 characters) is derived from the account, the same in every process.
CallerIdentity SandboxUserIdentity(const std::string& account);
std::string SandboxUserArn(const std::string& account);

//! The ARN an IAM principal is known by, as aws-iam-authenticator's arn.Canonicalize and
//! EKS access entries make it: an assumed-role session "arn:aws:sts::A:assumed-role/R/S" is
//! its role "arn:aws:iam::A:role/R"; other ARNs are themselves.
std::string CanonicalArn(const std::string& arn);

//! World kind of the temporary credentials STS issued: documents {"AccessKeyId",
//! "SecretAccessKey", "SessionToken", "Expiration" (IsoTime), "Arn", "UserId"}.
inline constexpr const char* kStsCredentialsKind = "sts_credentials";

}  // namespace strata::sandbox
