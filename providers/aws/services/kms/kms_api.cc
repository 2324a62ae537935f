#include "providers/aws/services/kms/kms_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallKms(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body, const CallOptions& options) {
  return CallJsonRpc(session, ctx, {"kms", "TrentService"}, operation, body, options);
}

Result<nlohmann::json> CallKms(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body) {
  return CallKms(session, ctx, operation, body, CallOptionsFor(ctx));
}

}  // namespace strata::aws
