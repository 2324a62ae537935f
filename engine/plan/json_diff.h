#pragma once
// A string holding JSON, drawn as Terraform draws it (jsonformat's renderStringDiffAsJson
// over its JSON differ): jsonencode( ... ) around the JSON value with one line per key or
// element, marked + / - / ~ by what happens to it. Objects list their keys sorted, quoted
// when they are not identifiers, and hide unchanged ones behind "# (N unchanged attributes
// hidden)" (id, name and tags always show); arrays pair elements as Terraform does
// (slice_pairs.h) and show the unchanged element on each side of a change, counting the
// rest ("# (N unchanged elements hidden)"). A change that only alters whitespace shows the
// whole document and "# whitespace changes".

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/plan/string_diff.h"

namespace strata::plan_render {

//! The JSON document `s` holds, when Terraform would draw it as JSON: `s` starts with "{"
//! or "[" and is exactly one valid JSON value (nesting at most kMaxNestingDepth levels, so
//! that drawing it cannot exhaust the stack). nullopt otherwise.
std::optional<nlohmann::json> ParseJsonString(const std::string& s);

//! jsonencode(...) for the string change `op` (see RenderStringChange) whose sides hold the
//! documents `before` / `after` (nullptr for a side that does not exist).
std::string RenderJsonStringChange(const nlohmann::json* before, const nlohmann::json* after, Op op, int indent,
                                   const StringRenderOptions& options);

}  // namespace strata::plan_render
