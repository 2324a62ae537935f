#pragma once
// Calling AWS KMS (awsJson 1.1, target prefix TrentService; regional, endpoint override key
// "kms") from a resource type.

#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kKmsNotFound = "NotFoundException";

//! Sends the KMS action `operation` with `body` and `options`.
Result<nlohmann::json> CallKms(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body, const CallOptions& options);
//! The same with CallOptionsFor(ctx).
Result<nlohmann::json> CallKms(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body);

}  // namespace strata::aws
