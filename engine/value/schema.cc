#include "engine/value/schema.h"

#include <array>
#include <utility>

namespace strata {

namespace {

constexpr std::array<std::pair<CreateRecovery, const char*>, 5> kRecoveryNames{{
    {CreateRecovery::ClientToken, "client_token"},
    {CreateRecovery::CreateTag, "create_tag"},
    {CreateRecovery::NaturalKey, "natural_key"},
    {CreateRecovery::StateOnly, "state_only"},
    {CreateRecovery::Rerun, "rerun"},
}};

}  // namespace

const char* CreateRecoveryName(CreateRecovery recovery) {
  for (const auto& [value, name] : kRecoveryNames) {
    if (value == recovery) return name;
  }
  return "";
}

std::optional<CreateRecovery> ParseCreateRecovery(const std::string& name) {
  if (name.empty()) return CreateRecovery::Unspecified;
  for (const auto& [value, text] : kRecoveryNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace strata
