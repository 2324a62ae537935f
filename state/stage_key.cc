#include "state/stage_key.h"

#include "state/environments.h"

namespace strata::state {

std::string StageKey(const std::string& environment, const std::string& stage) {
  if (environment.empty() || environment == kDefaultEnvironment) return stage;
  return environment + "/" + stage;
}

StageKeyParts SplitStageKey(const std::string& key) {
  size_t slash = key.find('/');
  if (slash == std::string::npos) return {kDefaultEnvironment, key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

}  // namespace strata::state
