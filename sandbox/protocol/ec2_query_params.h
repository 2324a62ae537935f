#pragma once
// Typed reads of an EC2 call's parameters, refusing as EC2 does: a missing (or empty)
// required parameter is 400 MissingParameter "The request must contain the parameter
// <name>", a malformed value 400 InvalidParameterValue "Value (<v>) for parameter <name> is
// invalid. Expected ...". Also EC2's MissingAction and InvalidAction.

#include <cstdint>
#include <optional>
#include <string>

#include "sandbox/protocol/api_error.h"
#include "sandbox/protocol/query_params.h"

namespace strata::sandbox {

class Ec2QueryParams : public QueryParams {
 public:
  using QueryParams::QueryParams;

  //! The parameter's value; MissingParameter when absent or empty.
  std::string Require(const std::string& name) const;
  //! "true"/"false" exactly; absent: `fallback`; anything else: InvalidParameterValue.
  bool GetBool(const std::string& name, bool fallback) const;
  //! An integer of at most 12 digits, optionally negative; nullopt when absent;
  //! InvalidParameterValue when not such a number.
  std::optional<int64_t> GetInt(const std::string& name) const;
  //! The call's Action: 400 MissingAction when there is none.
  std::string RequireAction() const;
};

//! 400 MissingParameter "The request must contain the parameter <name>".
ApiError MissingParameter(const std::string& name);
//! 400 InvalidParameterValue with AWS's message.
ApiError InvalidParameterValue(const std::string& message);
//! 400 InvalidAction "The action <action> is not valid for this web service."
ApiError InvalidEc2Action(const std::string& action);

}  // namespace strata::sandbox
