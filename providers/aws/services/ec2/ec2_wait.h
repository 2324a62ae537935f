#pragma once
// Waiting on EC2: retrying a call that AWS refuses while something else still holds the
// object (DependencyViolation while a network interface is being released), with the
// polling of common/wait.h (which ec2 types use for NAT gateways and lookups too).

#include <functional>
#include <string>
#include <vector>

#include "providers/aws/common/wait.h"
#include "providers/aws/services/ec2/ec2_api.h"

namespace strata::aws {

//! Sends `call`, retrying with backoff while AWS answers one of `codes`, until it is
//! accepted, fails otherwise, or the wait ends as in WaitFor. The last answer is returned.
Result<XmlResponse> CallEc2Retrying(const AwsSession& session, const OperationContext& ctx,
                                    const QueryRequest& call, const std::vector<std::string>& codes,
                                    Duration max_wait = kDefaultMaxWait);

}  // namespace strata::aws
