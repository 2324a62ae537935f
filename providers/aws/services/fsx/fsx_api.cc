#include "providers/aws/services/fsx/fsx_api.h"

#include <cmath>

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallFsx(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body) {
  return CallJsonRpc(session, ctx, {"fsx", "AWSSimbaAPIService_v20180301"}, operation, body, CallOptionsFor(ctx));
}

bool ValidLustreCapacity(double capacity, const std::string& deployment_type, std::string* rule) {
  double step = deployment_type == "SCRATCH_1" ? 3600 : 2400;
  if (rule) *rule = "1200, 2400, or a multiple of " + std::to_string(static_cast<int>(step)) + " GiB";
  return capacity == 1200 || capacity == 2400 || (capacity > 0 && std::fmod(capacity, step) == 0);
}

}  // namespace strata::aws
