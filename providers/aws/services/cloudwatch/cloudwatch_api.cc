#include "providers/aws/services/cloudwatch/cloudwatch_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallCloudWatch(const AwsSession& session, const OperationContext& ctx,
                                      const std::string& operation, const nlohmann::json& body) {
  return CallJsonRpc(session, ctx, {"cloudwatch", "GraniteServiceVersion20100801", "1.0"}, operation, body, CallOptionsFor(ctx));
}

bool IsDashboardNotFound(const AwsError& error) {
  return error.code == kCloudWatchNotFound || error.code == "DashboardNotFoundError" ||
         error.code == "ResourceNotFoundException";
}

}  // namespace strata::aws
