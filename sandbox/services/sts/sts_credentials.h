#pragma once
// Temporary credentials as STS issues them (AssumeRole, AssumeRoleWithWebIdentity,
// GetSessionToken): an "ASIA..." access key id, a secret, a session token and an
// expiration. Each issue is recorded in the world (kind "sts_credentials", keyed by access
// key id, with the ARN and user id it stands for) so that what was handed out can be looked
// up later (sandbox/caller_identity.h: EKS bearer tokens signed with them are accepted).
//
// The AWS front end verifies signatures against its one configured key pair only, so
// AWS API requests signed with these credentials are refused there today.

#include <chrono>
#include <string>

#include <pugixml.hpp>

#include "sandbox/services/sts/sts_call.h"

namespace strata::sandbox::sts {

struct TemporaryCredentials {
  std::string access_key_id;  //!< "ASIA" + 16 characters of [A-Z2-7]
  std::string secret_access_key;
  std::string session_token;
  std::chrono::system_clock::time_point expiration;
};

//! New credentials valid for `duration` from the call's time, recorded as standing for
//! `arn` (an assumed-role ARN, or the sandbox user's) whose GetCallerIdentity UserId is
//! `user_id` ("AROA…:session", or the user's "AIDA…").
TemporaryCredentials IssueCredentials(StsCall& call, std::chrono::seconds duration, const std::string& arn,
                                      const std::string& user_id);

//! Writes <Credentials><AccessKeyId/><SecretAccessKey/><SessionToken/><Expiration/>.
void WriteCredentials(pugi::xml_node result, const TemporaryCredentials& credentials);

}  // namespace strata::sandbox::sts
