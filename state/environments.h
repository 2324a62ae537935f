#pragma once
// Environments (Terraform's workspaces, Pulumi's stacks): the same stages deployed more than
// once — dev, staging, prod — each with a state of its own. A StateStore is opened for one
// environment (store.h), and every stage it reads, writes or locks is that environment's;
// these are the names and rules every backend and the CLI share.
//
// (Not to be confused with StateEnvironment, environment.h: the seam to the machine.)

#include <cstdint>
#include <string>

namespace strata::state {

//! The environment that always exists and cannot be deleted; a state from before
//! environments is its state.
inline constexpr char kDefaultEnvironment[] = "default";

//! Empty when `name` may name an environment; otherwise a sentence saying why not. A name is
//! 1 to 64 letters, digits, '-' and '_', starting with a letter or a digit (so it is a file
//! name, a URL path segment and part of a cloud object's name as it is).
std::string InvalidEnvironmentReason(const std::string& name);

//! One environment as `strata env list` shows it.
struct EnvironmentSummary {
  std::string name;
  int64_t stages = 0;     // stages with state in it
  int64_t resources = 0;  // resource instances in those stages' current state
};

}  // namespace strata::state
