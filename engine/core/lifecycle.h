#pragma once
// A resource's `lifecycle` settings as the plan rules take them.

#include "engine/config/module.h"
#include "engine/diag/diagnostic.h"
#include "engine/plan/rules.h"

namespace strata {

//! lifecycle.ignore_changes: attribute paths, or `all`. A malformed path is an error at the
//! lifecycle block (and is left out).
IgnoreChanges ParseIgnoreChanges(const LifecycleConfig& lifecycle, Diagnostics& diags);

}  // namespace strata
