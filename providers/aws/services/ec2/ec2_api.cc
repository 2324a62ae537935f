#include "providers/aws/services/ec2/ec2_api.h"

namespace strata::aws {

QueryRequest Ec2Call(const std::string& action) { return QueryRequest{action, kEc2Version, {}}; }

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call) {
  return CallQuery(session, ctx, "ec2", call, CallOptionsFor(ctx));
}

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options) {
  return CallQuery(session, ctx, "ec2", call, options);
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  return RunQuery(session, ctx, "ec2", call);
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done) {
  return RunQuery(session, ctx, "ec2", call, done);
}

void AddFilter(QueryRequest& call, int n, const std::string& name, const std::string& value) {
  std::string prefix = "Filter." + std::to_string(n);
  call.Add(prefix + ".Name", name).Add(prefix + ".Value.1", value);
}

}  // namespace strata::aws
