#include "providers/aws/credentials/ca_bundle.h"

#include "providers/aws/credentials/profile_sources.h"
#include "providers/aws/credentials/shared_config.h"

namespace strata::aws {

CaBundle FindCaBundle(const Environment& env, const std::string& configured_profile) {
  if (auto path = env.GetNonEmptyEnv("AWS_CA_BUNDLE")) return {env.ExpandHome(*path), "AWS_CA_BUNDLE"};
  ProfileChoice profile = ChooseProfile(env, configured_profile);
  SharedConfig config = LoadSharedConfig(env);
  auto it = config.config_profiles.find(profile.name);
  if (it == config.config_profiles.end()) return {};
  std::optional<std::string> path = GetSetting(it->second, "ca_bundle");
  if (!path) return {};
  return {env.ExpandHome(*path), "ca_bundle of profile \"" + profile.name + "\" in " + config.config_path};
}

}  // namespace strata::aws
