#pragma once
// The parameters of one query-protocol call (IAM, STS), read the way those services
// validate them: a missing required parameter or a value outside its constraints is a
// 400 ValidationError naming the member in lowerCamelCase ("Value null at 'roleName'..."),
// lists are "<Name>.member.<n>", tags "Tags.member.<n>.Key/.Value".

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::iam {

//! One IAM tag, as the query protocol carries it.
struct Tag {
  std::string key;
  std::string value;
};

//! The decoded parameters of one call.
class Params {
 public:
  explicit Params(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  //! The value, or `fallback` when the parameter is absent.
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  //! The value; throws ValidationError "Value null at '<member>'" when absent.
  std::string Required(const std::string& name) const;
  //! The value, which must be `min_length`..`max_length` characters long.
  std::string Length(const std::string& name, size_t min_length, size_t max_length,
                     bool required) const;
  //! "<name>.member.<n>" values in the order of n (gaps allowed, as the protocol allows).
  std::vector<std::string> Members(const std::string& name) const;
  //! "<name>.member.<n>.Key" / ".Value"; a tag without a key is a ValidationError.
  std::vector<Tag> Tags(const std::string& name = "Tags") const;
  //! An integer within [min, max]; nullopt when absent. Not a number or out of range:
  //! ValidationError.
  std::optional<long long> Integer(const std::string& name, long long min, long long max) const;
  //! "true" / "false" (any case); absent: `fallback`.
  bool Bool(const std::string& name, bool fallback) const;

 private:
  std::map<std::string, std::string> values_;
};

//! The entry of `table` (action name -> handler) for the call's Action: no Action is 400
//! MissingAction; an unknown one, or a Version other than `version`, 400 InvalidAction.
template <typename Table>
const typename Table::mapped_type& FindAction(const Params& params, const Table& table, const std::string& version) {
  std::string action = params.Get("Action");
  if (action.empty()) throw ApiError(400, "MissingAction", "The request must contain the parameter Action.");
  std::string asked = params.Get("Version", version);
  auto it = table.find(action);
  if (it == table.end() || asked != version) {
    throw ApiError(400, "InvalidAction", "Could not find operation " + action + " for version " + asked);
  }
  return it->second;
}

//! "roleName" for "RoleName", "openIDConnectProviderArn" for "OpenIDConnectProviderArn".
std::string MemberName(const std::string& param);

//! AWS's "1 validation error detected: Value '<value>' at '<member>' failed to satisfy
//! constraint: <constraint>" (400 ValidationError), for the parameter `param`.
ApiError ValidationError(const std::string& param, const std::string& value,
                         const std::string& constraint);

}  // namespace strata::sandbox::iam
