#pragma once
// A saved plan (`plan -out`) is applied later, by another process: these tell whether it
// still fits the stage it was made for. The planner records the digests in the plan; an
// apply of the saved plan recomputes them under the stage's lock and refuses a plan whose
// stage, state or configuration moved on since.

#include <optional>
#include <string>

#include "engine/core/engine.h"
#include "engine/plan/change.h"
#include "state/state.h"

namespace strata {

//! A digest of the stage's configuration files (their names and contents).
std::string ConfigDigest(const LoadedStage& stage);

//! A digest of a stage's state as loaded (lineage, serial, and each resource with its
//! status, token and attributes).
std::string StateDigest(const state::StageState& state);

//! Why `plan` can no longer be applied to `stage`, whose state (loaded under its lock) is
//! `prior` and whose configuration is `loaded`: a plan for another stage, a plan saved with
//! errors, a state with another lineage, a serial or contents that moved on, or changed
//! configuration files. nullopt when the plan still fits.
std::optional<std::string> SavedPlanStaleness(const Plan& plan, const std::string& stage,
                                              const state::StageState& prior, const LoadedStage& loaded);

}  // namespace strata
