#pragma once
// Loads strata.yaml and module directories. Every value keeps its file:line:col; every
// problem found is reported (not only the first) as a Diagnostic with a position.

#include <memory>
#include <string>

#include "engine/config/module.h"
#include "engine/config/project.h"
#include "engine/diag/diagnostic.h"

namespace strata {

//! Loads the module in `dir` (every *.yaml / *.yml file, merged) and, recursively, the
//! modules it calls. Returns what could be loaded even when there are errors.
std::shared_ptr<const ModuleConfig> LoadModule(const std::string& dir, SourceRegistry& sources, Diagnostics& diags);

}  // namespace strata
