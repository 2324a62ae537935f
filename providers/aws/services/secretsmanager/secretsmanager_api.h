#pragma once
// Calling AWS Secrets Manager (awsJson 1.1, target prefix "secretsmanager"; regional,
// endpoint override key "secretsmanager") from a resource type, and what its types share.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/json_members.h"
#include "providers/aws/common/tags.h"

namespace strata::aws {

inline constexpr const char* kSecretsManagerNotFound = "ResourceNotFoundException";

//! Sends the Secrets Manager action `operation` with `body` and `options`.
Result<nlohmann::json> CallSecretsManager(const AwsSession& session, const OperationContext& ctx,
                                          const std::string& operation, const nlohmann::json& body,
                                          const CallOptions& options);
//! The same with CallOptionsFor(ctx).
Result<nlohmann::json> CallSecretsManager(const AwsSession& session, const OperationContext& ctx,
                                          const std::string& operation, const nlohmann::json& body);

//! True for the errors that say the secret is gone for Terraform: not found, or scheduled
//! for deletion (InvalidRequestException "... marked for deletion").
bool SecretGone(const AwsError& error);


//! A version's staging labels (GetSecretValue's VersionStages).
std::vector<std::string> SecretVersionStages(const nlohmann::json& version);

//! Tags in Secrets Manager's wire form: [{"Key", "Value"}, ...].
nlohmann::json SecretTagList(const TagMap& tags);

}  // namespace strata::aws
