#pragma once
// Rendering a template text (templatefile's syntax: ${...} interpolations, %{if}/%{for}
// directives, $${ and %%{ escapes) with a set of variables. The evaluator hands this to
// every function that renders templates (FunctionContext::render_template): templatefile
// and kubernetes_documents share it, so both read templates by one set of rules.

#include <string>

#include "engine/value/value.h"

namespace strata {

//! Renders `text` as a template; `filename` names it in positions ("<file>:<line>:<col>").
//! Only the attributes of `vars` (an object or map; anything else means none) are in scope.
//! Returns a string, or unknown when the result depends on unknown values. Throws
//! FunctionError "<file>:<line>:<col>: <summary>: <detail>" for a syntax or evaluation error,
//! and for a template that yields a value that is not a string.
Value RenderTemplateFile(const std::string& text, const std::string& filename, const Value& vars);

}  // namespace strata
