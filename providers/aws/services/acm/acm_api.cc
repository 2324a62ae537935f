#include "providers/aws/services/acm/acm_api.h"

#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

Result<nlohmann::json> CallAcm(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body) {
  ctx.Log(LogLevel::Debug, "acm:" + operation);
  JsonRpcRequest call;
  call.target_prefix = "CertificateManager";
  call.operation = operation;
  call.body = body;
  return session.client->JsonRpc("acm", call, CallOptionsFor(ctx));
}

}  // namespace strata::aws
