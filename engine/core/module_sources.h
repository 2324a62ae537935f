#pragma once
// Module sources stay inside the project: a module call whose source leads outside the
// project directory (../../elsewhere, an absolute path, a symlink pointing out) is an error
// at its `source`, unless strata.yaml says allow_paths_outside_project: true. Stage
// directories get the same rule when strata.yaml is loaded (engine/config/project.h).

#include "engine/config/module.h"
#include "engine/config/project.h"
#include "engine/diag/diagnostic.h"

namespace strata {

//! Checks every module call under `root` (a stage's root module), recursively; calls inside
//! a module that is already outside are not reported again.
void CheckModuleSources(const ProjectConfig& project, const ModuleConfig& root, Diagnostics& diags);

}  // namespace strata
