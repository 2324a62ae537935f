#include "providers/aws/common/json_rpc_call.h"

#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

Result<nlohmann::json> CallJsonRpc(const AwsSession& session, const OperationContext& ctx, const JsonRpcService& service,
                                   const std::string& operation, const nlohmann::json& body, const CallOptions& options) {
  ctx.Log(LogLevel::Debug, std::string(service.name) + ":" + operation);
  JsonRpcRequest call;
  call.target_prefix = service.target_prefix;
  call.operation = operation;
  call.body = body;
  call.json_version = service.json_version;
  return session.client->JsonRpc(service.name, call, options);
}

}  // namespace strata::aws
