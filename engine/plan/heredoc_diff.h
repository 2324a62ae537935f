#pragma once
// A multi-line string, drawn as Terraform draws it: a heredoc whose lines are the string's
// lines (surrounding whitespace trimmed), each with its own symbol column:
//
//       ~ script = <<-EOT
//             line1
//           - line2
//           + line2 changed
//         EOT
//
// A created, deleted or unchanged string shows every line unmarked; a change pairs the
// lines as Terraform pairs list elements (slice_pairs.h) and, as Terraform does, shows every
// line, changed or not.

#include <string>

#include "engine/plan/string_diff.h"

namespace strata::plan_render {

//! True when Terraform draws `s` as a heredoc: it contains a line break.
bool IsMultiline(const std::string& s);

//! The heredoc for the string change `op` (see RenderStringChange); `before` / `after` are
//! nullptr for a side that does not exist. At least one side is multi-line.
std::string RenderHeredocChange(const std::string* before, const std::string* after, Op op, int indent,
                                const StringRenderOptions& options);

}  // namespace strata::plan_render
