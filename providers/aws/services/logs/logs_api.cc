#include "providers/aws/services/logs/logs_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallLogs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const nlohmann::json& body, const CallOptions& options) {
  return CallJsonRpc(session, ctx, {"logs", "Logs_20140328"}, operation, body, options);
}

Result<nlohmann::json> CallLogs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                const nlohmann::json& body) {
  return CallLogs(session, ctx, operation, body, CallOptionsFor(ctx));
}

}  // namespace strata::aws
