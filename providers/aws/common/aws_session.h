#pragma once
// What every aws resource and data source type shares once the provider is configured:
// the AwsClient, the region, the provider's default_tags — and the small glue between the
// provider interface and AwsClient (call options from an OperationContext, AwsError to
// Diagnostic).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/diag/diagnostic.h"
#include "providers/aws/client/aws_client.h"
#include "providers/provider.h"

namespace strata::aws {

//! Filled in by AwsProvider::Configure; the types hold it from construction.
struct AwsSession {
  std::shared_ptr<AwsClient> client;
  std::map<std::string, std::string> default_tags;

  bool Configured() const { return client != nullptr; }
  const std::string& Region() const { return client->region(); }
};

//! The context's deadline and cancellation as an AwsClient call's options.
CallOptions CallOptionsFor(const OperationContext& ctx);

//! CallOptionsFor(ctx) for the call of a create that makes the object when the API takes no
//! client token: an attempt whose outcome is unknown is not sent again (a second attempt
//! could make a second object); the object is looked for by the type's recovery instead.
CallOptions CreateCallOptionsFor(const OperationContext& ctx);

//! The error codes with which a call refuses work that is already done ("already attached",
//! "duplicate permission"). Answered to a retry of a call whose earlier attempt's outcome
//! was unknown, they mean that attempt did the work.
using AlreadyDoneCodes = std::vector<std::string>;
//! True when `error` is one of `codes` after an attempt whose outcome was unknown.
bool DoneByAnEarlierAttempt(const AwsError& error, const AlreadyDoneCodes& codes);

//! Sends `call` to the query-protocol `service` ("ec2", "iam") with `options`, logging
//! "service:Action" at debug level. Each service's `Call<Service>` is this with its name.
Result<XmlResponse> CallQuery(const AwsSession& session, const OperationContext& ctx, const std::string& service,
                              const QueryRequest& call, const CallOptions& options);

//! Sends `call` (with CallOptionsFor(ctx)) and turns a failure into a diagnostic naming the
//! action; an empty action (nothing to do) succeeds without a call, and so does a refusal
//! with one of `done` after an attempt whose outcome was unknown (DoneByAnEarlierAttempt).
Diagnostics RunQuery(const AwsSession& session, const OperationContext& ctx, const std::string& service,
                     const QueryRequest& call, const AlreadyDoneCodes& done = {});

//! "AWS CreateVpc failed" with the AWS code, message, HTTP status and request id.
Diagnostics AwsErrorDiag(const std::string& operation, const AwsError& error);

//! The result of a create whose `operation` call failed: no state, the error as a
//! diagnostic, and ApplyResult::outcome_unknown when the call may have made the object.
ApplyResult CreateFailed(const std::string& operation, const AwsError& error);

//! The ARN partition of a region: "aws", "aws-cn", "aws-us-gov".
std::string PartitionOf(const std::string& region);

//! "arn:<partition>:<service>:<region>:<account>:<resource>".
std::string MakeArn(const std::string& service, const std::string& region,
                    const std::string& account, const std::string& resource);

}  // namespace strata::aws
