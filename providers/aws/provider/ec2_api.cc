#include "providers/aws/provider/ec2_api.h"

namespace strata::aws {

QueryRequest Ec2Call(const std::string& action) { return QueryRequest{action, kEc2Version, {}}; }

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call) {
  ctx.Log(LogLevel::Debug, "ec2:" + call.action);
  return session.client->Query("ec2", call, CallOptionsFor(ctx));
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  if (call.action.empty()) return {};
  Result<XmlResponse> response = CallEc2(session, ctx, call);
  return response.ok() ? Diagnostics{} : AwsErrorDiag(call.action, response.error());
}

void AddFilter(QueryRequest& call, int n, const std::string& name, const std::string& value) {
  std::string prefix = "Filter." + std::to_string(n);
  call.Add(prefix + ".Name", name).Add(prefix + ".Value.1", value);
}

}  // namespace strata::aws
