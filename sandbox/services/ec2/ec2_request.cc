#include "sandbox/services/ec2/ec2_request.h"

namespace strata::sandbox {

Ec2Call::Ec2Call(ServiceContext& ctx) : Ec2QueryParams(ctx.request.Params()), ctx_(ctx), action_(Action()) {}

const std::string& Ec2Call::account() const {
  return ctx_.request.account_id.empty() ? ctx_.settings.account_id : ctx_.request.account_id;
}

int64_t Ec2Call::NowMillis() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ctx_.now.time_since_epoch()).count();
}

ApiError HasDependencies(const std::string& noun, const std::string& id) {
  return ApiError(400, "DependencyViolation",
                  "The " + noun + " '" + id + "' has dependencies and cannot be deleted.");
}

}  // namespace strata::sandbox
