#pragma once
// EC2's Describe* selection: ids ("VpcId.N") and filters ("Filter.N.Name",
// "Filter.N.Value.M", values with * and ? wildcards; "tag:<key>", "tag-key", "tag-value").
// An object passes when every filter matches one of its values.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! An object's values for one filter name; nullopt when the kind has no such filter (the
//! call is then refused with InvalidParameterValue, as EC2 does).
using Ec2FilterFields =
    std::function<std::optional<std::vector<std::string>>(const Json& object, const std::string& filter)>;

//! The objects among `objects` named by the call's "<id_param>.N" (all of them when none is
//! named; an unknown id throws the kind's NotFound) that pass the call's filters.
std::vector<Json> SelectObjects(const Ec2Call& call, const Ec2Kind& kind, const std::vector<Json>& objects,
                                const std::string& id_param, const Ec2FilterFields& fields);

//! "true"/"false" as filters compare booleans.
inline std::string BoolValue(bool b) { return b ? "true" : "false"; }

}  // namespace strata::sandbox
