#pragma once
// Values for a stage's root variables, from (lowest to highest precedence): defaults,
// STRATA_VAR_<name> environment variables, the selected environment's file (envs/NAME.yaml,
// environment_refs.h), -var-file files (YAML or JSON, in order), and -var name=value flags
// (in order).

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/config/module.h"
#include "engine/diag/diagnostic.h"

namespace strata {

struct VariableInputs {
  std::vector<std::pair<std::string, std::string>> cli_vars;  // -var name=value
  std::vector<std::string> var_files;                         // -var-file paths
  std::map<std::string, std::string> env;                     // STRATA_VAR_<name> → value
  //! The environment's variables file (empty: none). It serves every stage, so a name the
  //! stage does not declare is another stage's and is skipped without a warning.
  std::string environment_file;
};

struct RootVariableValue {
  Value value;
  std::string source;  // "-var", "-var-file vars.yaml", "environment variable STRATA_VAR_x"
  SourceRange range;   // where the value was written, when it was in a file
};

//! Collects the given values; undeclared names in -var are errors, in files warnings.
std::map<std::string, RootVariableValue> CollectRootVariables(const ModuleConfig& root, const VariableInputs& inputs,
                                                              SourceRegistry& sources, Diagnostics& diags);

//! STRATA_VAR_* entries of an environment block (envp-style "K=V" strings).
std::map<std::string, std::string> StrataVarsFromEnvironment(const char* const* envp);

//! Parses "name=value" from a -var flag; returns false when there is no '='.
bool SplitVarFlag(const std::string& flag, std::string& name, std::string& value);

}  // namespace strata
