#include "providers/aws/services/logs/logs_api.h"

#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

Result<nlohmann::json> CallLogs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const nlohmann::json& body, const CallOptions& options) {
  ctx.Log(LogLevel::Debug, "logs:" + operation);
  JsonRpcRequest call;
  call.target_prefix = "Logs_20140328";
  call.operation = operation;
  call.body = body;
  return session.client->JsonRpc("logs", call, options);
}

Result<nlohmann::json> CallLogs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const nlohmann::json& body) {
  return CallLogs(session, ctx, operation, body, CallOptionsFor(ctx));
}

}  // namespace strata::aws
