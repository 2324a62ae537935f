#pragma once
// How the SQLite store keys a stage of an environment in its tables (schema version 3): a
// stage of `default` by its name, as before environments existed, and a stage of another
// environment by "ENV/STAGE". Stage and environment names never hold '/' (both are
// identifiers), so a key splits back unambiguously.

#include <string>

namespace strata::state::sqlite {

std::string StageKey(const std::string& environment, const std::string& stage);

struct StageKeyParts {
  std::string environment;
  std::string stage;
};
StageKeyParts SplitStageKey(const std::string& key);

}  // namespace strata::state::sqlite
