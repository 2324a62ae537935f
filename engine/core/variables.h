#pragma once
// Values for a stage's root variables, from (lowest to highest precedence): defaults,
// STRATA_VAR_<name> environment variables, the selected environment's file (envs/NAME.yaml,
// environment_refs.h), then the -var name=value flags and -var-file files (YAML or JSON) in
// the order they were given on the command line, a later one winning — Terraform's rule for
// TF_VAR_*, -var and -var-file.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/config/module.h"
#include "engine/diag/diagnostic.h"

namespace strata {

//! One -var NAME=VALUE or -var-file FILE.
struct VariableArgument {
  enum class Kind { Var, File };
  Kind kind = Kind::Var;
  std::string name;   // Var: the variable's name
  std::string value;  // Var: the raw value; File: the file's path

  static VariableArgument Var(std::string name, std::string value) {
    return {Kind::Var, std::move(name), std::move(value)};
  }
  static VariableArgument File(std::string path) { return {Kind::File, "", std::move(path)}; }
};

struct VariableInputs {
  std::vector<VariableArgument> arguments;  // -var and -var-file, in command-line order
  std::map<std::string, std::string> env;   // STRATA_VAR_<name> → value
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
