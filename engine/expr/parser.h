#pragma once
// Parses expressions (the inside of `${...}`) and templates (text with `${...}` and
// `%{ if }/%{ for }` directives) in Terraform's syntax. Positions are mapped back to the
// file through a SourceMapping, so errors point at file:line:col of the YAML source.

#include <string>
#include <string_view>

#include "engine/diag/diagnostic.h"
#include "engine/expr/ast.h"

namespace strata {

//! Where offset 0 of the parsed text sits in its file. Text lines after the first start at
//! `continuation_col` (block scalars: the block's indentation + 1).
struct SourceMapping {
  std::string file;
  int first_line = 1;
  int first_col = 1;
  int continuation_col = 1;
};

//! Parses a whole expression; trailing text is an error. Returns nullptr on error.
ExprPtr ParseExpression(std::string_view text, const SourceMapping& mapping, Diagnostics& diags);

//! Parses a template. A template that is exactly one `${expr}` yields `expr` itself (its raw
//! value, not a string), as Terraform does. `$${` and `%%{` are literal `${` and `%{`.
ExprPtr ParseTemplate(std::string_view text, const SourceMapping& mapping, Diagnostics& diags);

//! True when `text` holds `${` or `%{` (escaped `$${` included: ParseTemplate is what turns
//! the escape back into a literal `${`).
bool HasTemplateSyntax(std::string_view text);

}  // namespace strata
