#pragma once
// Calling EC2 (query protocol, API version 2016-11-15) from a resource type.

#include <string>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kEc2Version = "2016-11-15";

//! An EC2 call with no parameters yet.
QueryRequest Ec2Call(const std::string& action);

//! Sends `call` to EC2 with the context's deadline and cancellation.
Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call);
//! The same with explicit options (CreateCallOptionsFor(ctx) for a create's own call).
Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options);

//! Sends `call` and turns a failure into a diagnostic naming the action; an empty action
//! (nothing to do) succeeds without a call.
Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call);
//! RunEc2 of a call that refuses work already done with one of `done` (see
//! DoneByAnEarlierAttempt): such an answer to a retry counts as success.
Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done);

//! Adds Filter.<n>.Name / Filter.<n>.Value.1.
void AddFilter(QueryRequest& call, int n, const std::string& name, const std::string& value);

//! EC2's "true"/"false" text.
inline const char* BoolText(bool b) { return b ? "true" : "false"; }

}  // namespace strata::aws
