#pragma once
// Calling Amazon CloudWatch Logs (awsJson 1.1, target prefix Logs_20140328; regional,
// endpoint override key "logs") from a type.

#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kLogsNotFound = "ResourceNotFoundException";

//! Sends the CloudWatch Logs action `operation` with `body` and `options`.
Result<nlohmann::json> CallLogs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const nlohmann::json& body, const CallOptions& options);
//! The same with CallOptionsFor(ctx).
Result<nlohmann::json> CallLogs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const nlohmann::json& body);

}  // namespace strata::aws
