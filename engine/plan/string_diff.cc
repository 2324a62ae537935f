#include "engine/plan/string_diff.h"

#include "engine/plan/heredoc_diff.h"
#include "engine/plan/json_diff.h"
#include "engine/value/format.h"

namespace strata::plan_render {

std::string RenderStringChange(const std::string* before, const std::string* after, Op op, int indent,
                               const StringRenderOptions& o) {
  if (op != Op::Update) {
    // One side is drawn (NoOp draws after, equal to before).
    const std::string& s = op == Op::Delete ? *before : *after;
    if (auto doc = ParseJsonString(s)) {
      return RenderJsonStringChange(op == Op::Create ? nullptr : &*doc, op == Op::Delete ? nullptr : &*doc, op,
                                    indent, o);
    }
    if (IsMultiline(s)) return RenderHeredocChange(before, after, op, indent, o);
    return QuoteString(s) + (op == Op::Delete && o.show_null ? " -> null" : "");
  }
  auto before_doc = ParseJsonString(*before);
  auto after_doc = ParseJsonString(*after);
  if (before_doc && after_doc) return RenderJsonStringChange(&*before_doc, &*after_doc, op, indent, o);
  if (before_doc || after_doc) {
    // JSON on one side only: the old value goes and the new one comes, as Terraform's
    // type-change renderer draws it (no "-> null" on the old side).
    StringRenderOptions sides = o;
    sides.show_null = false;
    return RenderStringChange(before, nullptr, Op::Delete, indent, sides) + " -> " +
           RenderStringChange(nullptr, after, Op::Create, indent, sides);
  }
  if (IsMultiline(*before) || IsMultiline(*after)) return RenderHeredocChange(before, after, op, indent, o);
  return QuoteString(*before) + " -> " + QuoteString(*after);
}

std::string WithReplacementNote(std::string rhs, bool color) {
  const std::string whitespace = "jsonencode( # whitespace changes\n";
  if (rhs.rfind(whitespace, 0) == 0) {
    return "jsonencode( " + Colored(color, kRed, "# whitespace changes force replacement") +
           rhs.substr(whitespace.size() - 1);
  }
  std::string note = " " + Colored(color, kRed, "# forces replacement");
  size_t at = rhs.find('\n');
  if (rhs.rfind("jsonencode(\n", 0) == 0) at = rhs.rfind('\n');
  if (at == std::string::npos) return rhs + note;
  return rhs.insert(at, note);
}

}  // namespace strata::plan_render
