#pragma once
// Calling Amazon CloudWatch (endpoint override key "cloudwatch", signing name "monitoring")
// from a type. CloudWatch serves Smithy RPC v2 CBOR, awsJson 1.0 and awsQuery; the provider
// speaks awsJson 1.0 (target prefix GraniteServiceVersion20100801), as the AWS CLI does. The
// API is awsQueryCompatible: error codes are the query protocol's ("ResourceNotFound").

#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kCloudWatchNotFound = "ResourceNotFound";

//! Sends the CloudWatch action `operation` with `body` (CallOptionsFor(ctx)).
Result<nlohmann::json> CallCloudWatch(const AwsSession& session, const OperationContext& ctx,
                                      const std::string& operation, const nlohmann::json& body);

//! Whether `error` says the dashboard named in the call does not exist (ResourceNotFound, or
//! the JSON shape name DashboardNotFoundError where a server sends that).
bool IsDashboardNotFound(const AwsError& error);

}  // namespace strata::aws
