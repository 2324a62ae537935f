#include "providers/aws/common/aws_session.h"

#include <algorithm>

namespace strata::aws {

CallOptions CallOptionsFor(const OperationContext& ctx) {
  CallOptions options;
  if (ctx.deadline) {
    auto left = *ctx.deadline - OperationContext::Clock::now();
    // Rounded up: a call made in the deadline's last millisecond is not refused as late.
    options.deadline = std::chrono::system_clock::now() + std::chrono::ceil<Duration>(left);
  }
  CancellationToken token = ctx.cancellation;
  options.cancelled = [token] { return token.IsCancelled(); };
  return options;
}

CallOptions CreateCallOptionsFor(const OperationContext& ctx) {
  CallOptions options = CallOptionsFor(ctx);
  options.retry_unknown_outcome = false;
  return options;
}

ApplyResult CreateFailed(const std::string& operation, const AwsError& error) {
  ApplyResult result{Value(), AwsErrorDiag(operation, error)};
  result.outcome_unknown = error.outcome_unknown;
  return result;
}

bool DoneByAnEarlierAttempt(const AwsError& error, const AlreadyDoneCodes& codes) {
  return error.outcome_unknown && std::find(codes.begin(), codes.end(), error.code) != codes.end();
}

Result<XmlResponse> CallQuery(const AwsSession& session, const OperationContext& ctx, const std::string& service,
                              const QueryRequest& call, const CallOptions& options) {
  ctx.Log(LogLevel::Debug, service + ":" + call.action);
  return session.client->Query(service, call, options);
}

Diagnostics RunQuery(const AwsSession& session, const OperationContext& ctx, const std::string& service,
                     const QueryRequest& call, const AlreadyDoneCodes& done) {
  if (call.action.empty()) return {};
  Result<XmlResponse> response = CallQuery(session, ctx, service, call, CallOptionsFor(ctx));
  if (response.ok() || DoneByAnEarlierAttempt(response.error(), done)) return {};
  return AwsErrorDiag(call.action, response.error());
}

Diagnostics AwsErrorDiag(const std::string& operation, const AwsError& error) {
  Diagnostics diags;
  std::string detail = "The AWS " + operation + " call failed: " + error.code;
  if (!error.message.empty()) detail += ": " + error.message;
  if (error.http_status != 0) detail += " (HTTP " + std::to_string(error.http_status) + ")";
  detail += ". Request id: " + (error.request_id.empty() ? "none" : error.request_id) + ".";
  diags.Error("AWS " + operation + " failed", detail);
  return diags;
}

std::string PartitionOf(const std::string& region) {
  if (region.rfind("cn-", 0) == 0) return "aws-cn";
  if (region.rfind("us-gov-", 0) == 0) return "aws-us-gov";
  return "aws";
}

std::string MakeArn(const std::string& service, const std::string& region,
                    const std::string& account, const std::string& resource) {
  return "arn:" + PartitionOf(region) + ":" + service + ":" + region + ":" + account + ":" +
         resource;
}

}  // namespace strata::aws
