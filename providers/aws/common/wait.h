#pragma once
// Waiting on AWS objects that change in the background: polling until an object reaches a
// state (a NAT gateway "available", an SQS queue's attributes as sent) or shows up in
// Describe answers. Waits honour the context's cancellation and deadline and report
// progress on long waits.

#include <functional>
#include <string>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

//! One look at the object being waited on.
struct WaitPoll {
  bool done = false;
  //! The state seen ("pending"), for progress messages.
  std::string status;
  //! Errors end the wait at once (the object failed, or the describe call did).
  Diagnostics diags;
};

//! How long a wait may take when the context sets no deadline.
inline constexpr Duration kDefaultMaxWait{std::chrono::minutes(15)};

//! Calls `poll` until it is done or fails, sleeping with exponential backoff (250 ms
//! doubling up to 10 s) between looks. `what` completes "waiting for ..." in progress and
//! timeout messages ("NAT gateway nat-1 to become available"). Stops with an error on
//! cancellation, at the context's deadline, or after `max_wait` without a deadline.
Diagnostics WaitFor(const AwsSession& session, const OperationContext& ctx,
                    const std::string& what, const std::function<WaitPoll()>& poll,
                    Duration max_wait = kDefaultMaxWait);

//! How long a new object may take to show up in Describe* answers (eventual consistency).
inline constexpr Duration kPropagationWait{std::chrono::minutes(2)};

//! Waits until `read` finds the object just written (not gone), as WaitFor; a read error
//! ends the wait. `what` completes "waiting for ...".
Diagnostics WaitUntilListed(const AwsSession& session, const OperationContext& ctx,
                            const std::string& what, const std::function<ReadResult()>& read);

}  // namespace strata::aws
