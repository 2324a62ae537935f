#include "providers/aws/common/json_members.h"

namespace strata::aws {

std::string JsonString(const nlohmann::json& j, const std::string& key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace strata::aws
