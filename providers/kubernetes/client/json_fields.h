#pragma once
// Reading fields of Kubernetes JSON without exceptions: a missing or mistyped field reads
// as empty, as kube clients treat it.

#include <string>

#include <nlohmann/json.hpp>

namespace strata::kubernetes {

//! The string at `j[key]`; "" when `j` is not an object or the field is missing or not a string.
inline std::string StringAt(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace strata::kubernetes
