#pragma once
// The environment as the configuration sees it (README "Environments"): `${env.name}` in
// expressions, and the variables file `envs/NAME.yaml` at the project root that the
// selected environment brings. The state store keeps each environment's state apart
// (state/environments.h); this is what the engine adds on top.

#include <optional>
#include <string>
#include <utility>

#include "engine/expr/ast.h"
#include "engine/value/value.h"

namespace strata {

//! `${env.X}`: what is wrong with the reference, as a diagnostic's summary and detail, or
//! nullopt when it is `env.name` (the only attribute).
std::optional<std::pair<std::string, std::string>> InvalidEnvReference(const Reference& ref);

//! The value of a valid `${env.name}` in `environment` (the caller consumes one step).
//! Throws EvalError for an invalid reference (InvalidEnvReference's words).
Value EnvReferenceValue(const Reference& ref, const std::string& environment);

//! `envs/ENVIRONMENT.yaml` under the project root, or empty when there is no such file
//! (a missing file is fine: the environment sets nothing by file).
std::string EnvironmentVariablesFile(const std::string& project_dir, const std::string& environment);

}  // namespace strata
