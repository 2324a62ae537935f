#pragma once
// Conversion between Values and JSON (state attributes, -json output, jsondecode/jsonencode).

#include <nlohmann/json.hpp>

#include "engine/value/value.h"

namespace strata {

//! A number as JSON: whole numbers within 64 bits exactly, others as the nearest double
//! (nlohmann's numbers are 64-bit; a number beyond that is not exact in JSON yet).
nlohmann::json NumberToJson(const Number& n);
//! Whether NumberToJson's JSON reads back (JsonToValue) as a number equal to `n`: false for
//! infinities and numbers beyond a double's precision or range.
bool NumberFitsJson(const Number& n);
//! Unknown values have no JSON form: they become null (callers that care check first).
//! Marks are dropped; callers mask sensitive values before converting when they must.
nlohmann::json ValueToJson(const Value& v);
//! Arrays become tuples and objects become objects, as Terraform's jsondecode does.
Value JsonToValue(const nlohmann::json& j);

}  // namespace strata
