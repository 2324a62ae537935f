#pragma once
// Conversion between Values and JSON (state attributes, -json output, jsondecode/jsonencode).

#include <nlohmann/json.hpp>

#include "engine/value/value.h"

namespace strata {

//! Unknown values have no JSON form: they become null (callers that care check first).
//! Marks are dropped; callers mask sensitive values before converting when they must.
nlohmann::json ValueToJson(const Value& v);
//! Arrays become tuples and objects become objects, as Terraform's jsondecode does.
Value JsonToValue(const nlohmann::json& j);

}  // namespace strata
