#pragma once
// The pieces every part of the human plan's value rendering shares: the change of one line
// (Op), its two-column symbol ("+ ", "- ", "~ ", "  "), indentation and the
// "# (N unchanged ... hidden)" note, as Terraform's jsonformat renderers write them.
//
// Columns: a value "at indent" starts on a line whose symbol is at column `indent`; the
// lines inside it have their symbols at indent + 4 and its closing bracket is at indent + 2.

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace strata::plan_render {

//! What happens to one rendered line or value.
enum class Op { Create, Delete, Update, NoOp };

inline constexpr const char* kGreen = "\x1b[32m";
inline constexpr const char* kYellow = "\x1b[33m";
inline constexpr const char* kRed = "\x1b[31m";
inline constexpr const char* kCyan = "\x1b[36m";
inline constexpr const char* kBold = "\x1b[1m";
inline constexpr const char* kReset = "\x1b[0m";

inline std::string Pad(int n) { return std::string(static_cast<size_t>(std::max(n, 0)), ' '); }

inline std::string Colored(bool color, const char* code, const std::string& s) {
  return color ? std::string(code) + s + kReset : s;
}

//! The two-column symbol of a line: "+ ", "- ", "~ " or "  ".
inline std::string Symbol(Op op, bool color) {
  switch (op) {
    case Op::Create: return Colored(color, kGreen, "+") + " ";
    case Op::Delete: return Colored(color, kRed, "-") + " ";
    case Op::Update: return Colored(color, kYellow, "~") + " ";
    case Op::NoOp: return "  ";
  }
  return "  ";
}

//! "# (1 unchanged attribute hidden)", "# (3 unchanged elements hidden)".
inline std::string HiddenNote(int n, const char* what) {
  return fmt::format("# ({} unchanged {}{} hidden)", n, what, n == 1 ? "" : "s");
}

//! Terraform's rule for combining the changes of a collection's elements into the change
//! of the collection: NoOp elements leave it as it is, any mix makes it an update.
inline Op CombineOps(Op current, Op next) {
  if (next == Op::NoOp) return current;
  return current == next ? current : Op::Update;
}

}  // namespace strata::plan_render
