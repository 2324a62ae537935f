#pragma once
// Calling Amazon Cognito user pools (awsJson 1.1, target prefix
// AWSCognitoIdentityProviderService; regional, endpoint override key "cognito-idp") from a
// resource type, and the value helpers its types share.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kCognitoNotFound = "ResourceNotFoundException";

//! Sends the Cognito user pools action `operation` with `body` and `options`.
Result<nlohmann::json> CallCognito(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                   const nlohmann::json& body, const CallOptions& options);
//! The same with CallOptionsFor(ctx).
Result<nlohmann::json> CallCognito(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                   const nlohmann::json& body);

//! The string array `key` of `j` as a set value (empty set when absent).
Value CognitoStringSet(const nlohmann::json& j, const std::string& key);
//! The string array `key` of `j` as a list value (empty list when absent).
Value CognitoStringList(const nlohmann::json& j, const std::string& key);
//! The string map `key` of `j` as a map value ({} when absent).
Value CognitoStringMap(const nlohmann::json& j, const std::string& key);
//! `read` (an object as AWS has it) shaped like `prior`, the same object as configured:
//! only the attributes `prior` has, and those it holds as null stay null, so that what the
//! configuration leaves to AWS's defaults is no diff. A null or unknown `prior` (a create,
//! an import) keeps `read`.
Value ShapedLike(const Value& read, const Value& prior);

}  // namespace strata::aws
