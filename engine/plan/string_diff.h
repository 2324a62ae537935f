#pragma once
// A string attribute's value or change in the human plan, as Terraform renders strings:
//   - a plain string:        "text", "a" -> "b", "gone" -> null
//   - a string holding JSON (it starts with { or [ and parses): jsonencode(...) with a
//     structural diff, key by key and element by element (engine/plan/json_diff.h)
//   - a multi-line string:   <<-EOT ... EOT with a line diff (engine/plan/heredoc_diff.h)
// A change between a JSON string and another string is drawn as the old value removed and
// the new one added (`jsonencode(...) -> "plain"`). Sensitive and unknown values never get
// here: the caller draws them as (sensitive value) / (known after apply).

#include <string>

#include "engine/plan/diff_lines.h"

namespace strata::plan_render {

struct StringRenderOptions {
  bool color = false;
  //! A deleted value ends in " -> null" (not inside a removed parent, a JSON document or
  //! before " -> (known after apply)").
  bool show_null = false;
  //! Unchanged keys and elements of a JSON diff are shown, not counted.
  bool show_unchanged = false;
};

//! The value at column `indent` (see diff_lines.h). `op` says which sides there are:
//! Create (after), Delete (before), NoOp (after, equal to before), Update (both).
std::string RenderStringChange(const std::string* before, const std::string* after, Op op, int indent,
                               const StringRenderOptions& options);

//! `rhs` (a value or change as drawn) with Terraform's " # forces replacement" note where
//! Terraform puts it: after the document inside a multi-line jsonencode(...) (and as
//! "# whitespace changes force replacement" for a whitespace-only change), at the end of
//! the first line otherwise.
std::string WithReplacementNote(std::string rhs, bool color);

}  // namespace strata::plan_render
