#pragma once
// Reading a member of a JSON answer (the awsJson and REST-JSON services) without throwing
// on what AWS leaves out or writes as null.

#include <string>

#include <nlohmann/json.hpp>

namespace strata::aws {

//! The string member `key` of object `j`; "" when `j` is not an object, or the member is
//! absent, null or not a string.
std::string JsonString(const nlohmann::json& j, const std::string& key);

}  // namespace strata::aws
