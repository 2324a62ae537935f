#include "providers/aws/services/ec2/ec2_wait.h"

#include <algorithm>
#include <optional>

namespace strata::aws {

Result<XmlResponse> CallEc2Retrying(const AwsSession& session, const OperationContext& ctx,
                                    const QueryRequest& call, const std::vector<std::string>& codes,
                                    Duration max_wait) {
  std::optional<Result<XmlResponse>> last;
  auto retryable = [&](const Result<XmlResponse>& r) {
    return !r.ok() && std::find(codes.begin(), codes.end(), r.error().code) != codes.end();
  };
  // The wait's own timeout message is dropped: the last AWS answer says more.
  (void)WaitFor(
      session, ctx, call.action + " to be accepted",
      [&] {
        last = CallEc2(session, ctx, call);
        WaitPoll poll;
        poll.done = !retryable(*last);
        if (!poll.done) poll.status = last->error().code;
        return poll;
      },
      max_wait);
  return *last;  // WaitFor polls at least once
}

}  // namespace strata::aws
