#pragma once
// Helpers shared by the expression tests: parse a text with a fixed source mapping and
// evaluate it against a MapScope.

#include <string>
#include <string_view>

#include "engine/diag/diagnostic.h"
#include "engine/expr/eval.h"
#include "engine/expr/function.h"
#include "engine/expr/parser.h"

namespace strata::testing {

//! Expressions in these tests sit at line 3, column 10 of "main.yaml"; continuation lines
//! start at column 5.
inline SourceMapping TestMapping() { return SourceMapping{"main.yaml", 3, 10, 5}; }

struct EvalResult {
  Value value;
  Diagnostics diags;
  //! The first diagnostic's "summary: detail", or "" when there is none.
  std::string Error() const {
    if (diags.empty()) return "";
    return diags.items()[0].summary + ": " + diags.items()[0].detail;
  }
  //! "line:col" of the first diagnostic's caret.
  std::string Where() const {
    if (diags.empty()) return "";
    const auto& s = diags.items()[0].subject.start;
    return std::to_string(s.line) + ":" + std::to_string(s.column);
  }
};

//! Parses `text` (as an expression, or as a template when `is_template`) and evaluates it.
inline EvalResult EvalText(std::string_view text, MapScope& scope, bool is_template = false) {
  EvalResult r;
  ExprPtr e = is_template ? ParseTemplate(text, TestMapping(), r.diags) : ParseExpression(text, TestMapping(), r.diags);
  if (!e) return r;
  EvalContext ctx(scope, FunctionTable::Standard(), FunctionContext{});
  ctx.expression_text = std::string(text);
  r.value = Evaluate(*e, ctx, r.diags);
  return r;
}

inline EvalResult EvalText(std::string_view text, bool is_template = false) {
  MapScope scope;
  return EvalText(text, scope, is_template);
}

}  // namespace strata::testing
