#pragma once
// How the state stores key a stage of an environment in their tables (SQLite since schema
// version 3, PostgreSQL from the start): a stage of `default` by its name, as before
// environments existed, and a stage of another environment by "ENV/STAGE". Stage and environment names never hold '/' (both are
// identifiers), so a key splits back unambiguously.

#include <string>

namespace strata::state {

std::string StageKey(const std::string& environment, const std::string& stage);

struct StageKeyParts {
  std::string environment;
  std::string stage;
};
StageKeyParts SplitStageKey(const std::string& key);

}  // namespace strata::state
