#pragma once
// One EC2 call as its handlers see it: the decoded query parameters with their typed reads
// and EC2's refusals of a missing or malformed one (sandbox/protocol/ec2_query_params.h:
// numbered lists "Tag.1.Key", MissingParameter, InvalidParameterValue), the caller's
// account and region, the clock and the world.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/protocol/ec2_query_params.h"
#include "sandbox/service.h"

namespace strata::sandbox {

//! The request a handler answers, and its parameters. Objects live in the request's region.
class Ec2Call : public Ec2QueryParams {
 public:
  explicit Ec2Call(ServiceContext& ctx);

  World& world() const { return ctx_.world; }
  const SandboxSettings& settings() const { return ctx_.settings; }
  const std::string& region() const { return ctx_.request.region; }
  //! The caller's account, or the sandbox's own when the request names none.
  const std::string& account() const;
  std::chrono::system_clock::time_point now() const { return ctx_.now; }
  //! Milliseconds since the epoch, as objects store their times.
  int64_t NowMillis() const;
  const std::string& action() const { return action_; }

 private:
  ServiceContext& ctx_;
  std::string action_;
};

//! 400 DependencyViolation "The <noun> '<id>' has dependencies and cannot be deleted."
ApiError HasDependencies(const std::string& noun, const std::string& id);

}  // namespace strata::sandbox
