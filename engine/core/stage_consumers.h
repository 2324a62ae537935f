#pragma once
// Stages that others read: a destroy of a stage whose outputs an applied stage reads
// (${stage.S.X}) would pull the ground from under it — its next plan could not evaluate,
// and its objects (a node group of a destroyed cluster) would be orphans. The destroy is
// refused with those stages' names unless forced.

#include <string>
#include <vector>

#include "engine/core/engine.h"
#include "state/store.h"

namespace strata {

//! The project's stages (other than `stage`) whose configuration reads `stage`'s outputs and
//! whose state holds objects, in the project's order. Stages that fail to load are skipped
//! (their own plan reports them).
std::vector<std::string> AppliedReadersOf(Engine& engine, const ProjectConfig& project, state::StateStore& store,
                                          const std::string& stage);

}  // namespace strata
