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
//! Arrays become tuples and objects become objects, as Terraform's jsondecode does. An
//! exact-number node (ValueToExactJson) becomes that number.
Value JsonToValue(const nlohmann::json& j);

//! The exact form, for what Strata stores and reads back itself (state rows): as
//! ValueToJson, but a number JSON's doubles cannot hold while within their range (1/3's
//! 512 bits, integers past 2^64) becomes an exact-number node, a binary value that only
//! DumpExactJson writes (as the number's digits) and ParseExactJson reads back.
nlohmann::json ValueToExactJson(const Value& v);
//! JSON text as nlohmann's dump(indent) writes it (compact for -1), exact-number nodes as
//! their digits.
std::string DumpExactJson(const nlohmann::json& j, int indent = -1);
std::string DumpExactJson(const nlohmann::ordered_json& j, int indent = -1);
//! The binary subtype of an exact-number node (its bytes are the number's text).
inline constexpr std::uint64_t kExactNumberSubtype = 0x4E;
//! Parses JSON text; numbers of more than 17 characters become exact-number nodes. A
//! discarded value (is_discarded()) when the text is not JSON.
nlohmann::json ParseExactJson(const std::string& text);

}  // namespace strata
