#include "providers/aws/services/ec2/ec2_api.h"

namespace strata::aws {

QueryRequest Ec2Call(const std::string& action) { return QueryRequest{action, kEc2Version, {}}; }

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call) {
  return CallEc2(session, ctx, call, CallOptionsFor(ctx));
}

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options) {
  ctx.Log(LogLevel::Debug, "ec2:" + call.action);
  return session.client->Query("ec2", call, options);
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  return RunEc2(session, ctx, call, {});
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done) {
  if (call.action.empty()) return {};
  Result<XmlResponse> response = CallEc2(session, ctx, call);
  if (response.ok() || DoneByAnEarlierAttempt(response.error(), done)) return {};
  return AwsErrorDiag(call.action, response.error());
}

void AddFilter(QueryRequest& call, int n, const std::string& name, const std::string& value) {
  std::string prefix = "Filter." + std::to_string(n);
  call.Add(prefix + ".Name", name).Add(prefix + ".Value.1", value);
}

}  // namespace strata::aws
