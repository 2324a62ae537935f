#include "providers/aws/services/acm/acm_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallAcm(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body) {
  return CallJsonRpc(session, ctx, {"acm", "CertificateManager"}, operation, body, CallOptionsFor(ctx));
}

}  // namespace strata::aws
