#include "providers/aws/services/kms/kms_api.h"

#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

Result<nlohmann::json> CallKms(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body, const CallOptions& options) {
  ctx.Log(LogLevel::Debug, "kms:" + operation);
  JsonRpcRequest call;
  call.target_prefix = "TrentService";
  call.operation = operation;
  call.body = body;
  return session.client->JsonRpc("kms", call, options);
}

Result<nlohmann::json> CallKms(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body) {
  return CallKms(session, ctx, operation, body, CallOptionsFor(ctx));
}

}  // namespace strata::aws
