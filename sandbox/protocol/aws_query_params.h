#pragma once
// Typed reads of an awsQuery call's parameters (IAM, STS), refusing as those services do:
// a missing required parameter or a value outside its constraints is a 400 ValidationError
// naming the member in lowerCamelCase ("1 validation error detected: Value null at
// 'roleName' failed to satisfy constraint: Member must not be null"). Also the dispatch on
// Action and Version, with AWS's MissingAction and InvalidAction.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/protocol/api_error.h"
#include "sandbox/protocol/query_params.h"

namespace strata::sandbox {

//! One tag, as the awsQuery protocol carries it ("Tags.member.<n>.Key" / ".Value").
struct QueryTag {
  std::string key;
  std::string value;
};

class AwsQueryParams : public QueryParams {
 public:
  using QueryParams::QueryParams;

  //! The value; ValidationError "Value null at '<member>'" when absent (empty is a value).
  std::string Required(const std::string& name) const;
  //! The value, which must be `min_length`..`max_length` characters long; when absent, ""
  //! unless `required`.
  std::string Length(const std::string& name, size_t min_length, size_t max_length,
                     bool required) const;
  //! "<name>.member.<n>.Key" / ".Value" in the order of n: a tag without a key, a key
  //! outside 1..128 characters or a value over 256 is a ValidationError.
  std::vector<QueryTag> Tags(const std::string& name = "Tags") const;
  //! An integer within [min, max]; nullopt when absent. Not a number or out of range:
  //! ValidationError.
  std::optional<long long> Integer(const std::string& name, long long min, long long max) const;
  //! "true" / "false" (any case); absent: `fallback`; anything else: ValidationError.
  bool Bool(const std::string& name, bool fallback) const;
};

//! "roleName" for "RoleName", "openIDConnectProviderArn" for "OpenIDConnectProviderArn".
std::string MemberName(const std::string& param);

//! AWS's "1 validation error detected: Value '<value>' at '<member>' failed to satisfy
//! constraint: <constraint>" (400 ValidationError), for the parameter `param`.
ApiError ValidationError(const std::string& param, const std::string& value,
                         const std::string& constraint);

//! The check FindAction makes: no Action is 400 MissingAction; `known` false, or a Version
//! other than `version`, is 400 InvalidAction "Could not find operation ...".
void CheckAction(const QueryParams& params, bool known, const std::string& version);

//! The entry of `table` (action name -> handler) for the call's Action, checked as
//! CheckAction says.
template <typename Table>
const typename Table::mapped_type& FindAction(const QueryParams& params, const Table& table,
                                              const std::string& version) {
  auto it = table.find(params.Action());
  CheckAction(params, it != table.end(), version);
  return it->second;
}

}  // namespace strata::sandbox
