#pragma once
// One EC2 call as its handlers see it: the decoded query parameters (with EC2's numbered
// lists, "Tag.1.Key"), the caller's account and region, the clock and the world; and the
// errors AWS gives for a missing or malformed parameter.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox {

//! The request a handler answers. Objects live in the request's region.
class Ec2Call {
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

  bool Has(const std::string& name) const { return params_.count(name) > 0; }
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  //! The parameter's value; throws MissingParameter when absent or empty.
  std::string Require(const std::string& name) const;
  //! "true"/"false"; throws InvalidParameterValue for anything else.
  bool GetBool(const std::string& name, bool fallback) const;
  //! An integer; nullopt when absent; throws InvalidParameterValue when not a number.
  std::optional<int64_t> GetInt(const std::string& name) const;
  //! The values of "<prefix>.1", "<prefix>.2", ... in index order.
  std::vector<std::string> GetList(const std::string& prefix) const;
  //! The member prefixes "<prefix>.N" of a numbered list of structures, in index order
  //! ("IpPermissions.1", "IpPermissions.2" for IpPermissions.1.IpProtocol, ...).
  std::vector<std::string> Members(const std::string& prefix) const;

 private:
  ServiceContext& ctx_;
  std::map<std::string, std::string> params_;
  std::string action_;
};

//! 400 MissingParameter "The request must contain the parameter <name>".
ApiError MissingParameter(const std::string& name);
//! 400 InvalidParameterValue with AWS's message.
ApiError InvalidParameterValue(const std::string& message);
//! 400 DependencyViolation "The <noun> '<id>' has dependencies and cannot be deleted."
ApiError HasDependencies(const std::string& noun, const std::string& id);

}  // namespace strata::sandbox
