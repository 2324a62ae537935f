#include "providers/aws/services/cloudwatch/cloudwatch_api.h"

#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

Result<nlohmann::json> CallCloudWatch(const AwsSession& session, const OperationContext& ctx,
                                      const std::string& operation, const nlohmann::json& body) {
  ctx.Log(LogLevel::Debug, "cloudwatch:" + operation);
  JsonRpcRequest call;
  call.target_prefix = "GraniteServiceVersion20100801";
  call.operation = operation;
  call.body = body;
  call.json_version = "1.0";
  return session.client->JsonRpc("cloudwatch", call, CallOptionsFor(ctx));
}

bool IsDashboardNotFound(const AwsError& error) {
  return error.code == kCloudWatchNotFound || error.code == "DashboardNotFoundError" ||
         error.code == "ResourceNotFoundException";
}

}  // namespace strata::aws
