#pragma once
// Files that may hold sealed secrets (saved plans, recovery files): written whole or not at
// all, durable when written, readable by their owner only.

#include <string>

#include "state/environment.h"
#include "state/status.h"

namespace strata::state {

//! Writes `text` to a new file beside `path` (mode 0600 exactly), fsyncs it, renames it
//! over `path` and fsyncs the directory, so that `path` holds either the old or the whole
//! new text. Io naming `what` ("plan file") and `path` on failure.
StateStatus WritePrivateFile(const std::string& path, const std::string& text, const std::string& what,
                             StateEnvironment& env);

}  // namespace strata::state
