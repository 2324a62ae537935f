#pragma once
// Calling an awsJson service (X-Amz-Target "<prefix>.<Operation>": KMS, SQS, SSM, Cognito,
// Secrets Manager, ACM, FSx, CloudWatch Logs, CloudWatch, EventBridge) from a resource type:
// what each service's Call<Service> does, once. A header of its own so that the query-
// protocol services never include nlohmann/json.hpp.

#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

//! An awsJson service: its endpoint key ("kms"), its target prefix ("TrentService") and the
//! JSON version it speaks.
struct JsonRpcService {
  const char* name;
  const char* target_prefix;
  const char* json_version = "1.1";
};

//! Sends `operation` with `body` to `service` with `options`, logging "service:Operation" at
//! debug level.
Result<nlohmann::json> CallJsonRpc(const AwsSession& session, const OperationContext& ctx, const JsonRpcService& service,
                                   const std::string& operation, const nlohmann::json& body, const CallOptions& options);

}  // namespace strata::aws
