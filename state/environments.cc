#include "state/environments.h"

namespace strata::state {

std::string InvalidEnvironmentReason(const std::string& name) {
  constexpr size_t kMaxLength = 64;
  if (name.empty()) return "an environment name cannot be empty";
  if (name.size() > kMaxLength) {
    return "the environment name \"" + name + "\" is longer than " + std::to_string(kMaxLength) + " characters";
  }
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (!alnum(name[0])) {
    return "the environment name \"" + name + "\" must start with a letter or a digit";
  }
  for (char c : name) {
    if (!alnum(c) && c != '-' && c != '_') {
      return "the environment name \"" + name + "\" may only hold letters, digits, '-' and '_'";
    }
  }
  return "";
}

}  // namespace strata::state
