#include "engine/plan/heredoc_diff.h"

#include <vector>

#include "engine/plan/slice_pairs.h"

namespace strata::plan_render {
namespace {

// Go's strings.HeredocTrimSpace for ASCII whitespace: Terraform trims a multi-line string before
// drawing it.
std::string HeredocTrimSpace(const std::string& s) {
  const char* ws = " \t\n\r\v\f";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::vector<std::string> HeredocLines(const std::string& s) {
  std::string text = IsMultiline(s) ? HeredocTrimSpace(s) : s;
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(text.substr(start, nl - start));
  }
  lines.push_back(text.substr(start));
  return lines;
}

}  // namespace

bool IsMultiline(const std::string& s) { return s.find('\n') != std::string::npos; }

std::string RenderHeredocChange(const std::string* before, const std::string* after, Op op, int indent,
                                const StringRenderOptions& o) {
  std::string body;
  auto line = [&](Op line_op, const std::string& text) {
    body += Pad(indent + 4) + Symbol(line_op, o.color) + text + "\n";
  };
  if (op == Op::Update) {
    std::vector<std::string> b = HeredocLines(*before), a = HeredocLines(*after);
    auto same = [&](size_t i, size_t j) { return b[i] == a[j]; };
    auto never = [](size_t) { return false; };
    for (const SlicePair& p : PairSlices(b.size(), a.size(), same, never, never)) {
      if (p.before == SlicePair::npos) {
        line(Op::Create, a[p.after]);
      } else if (p.after == SlicePair::npos) {
        line(Op::Delete, b[p.before]);
      } else if (b[p.before] != a[p.after]) {
        line(Op::Delete, b[p.before]);
        line(Op::Create, a[p.after]);
      } else {
        line(Op::NoOp, b[p.before]);
      }
    }
  } else {
    for (const std::string& text : HeredocLines(op == Op::Delete ? *before : *after)) line(Op::NoOp, text);
  }
  std::string null_suffix = op == Op::Delete && o.show_null ? " -> null" : "";
  return "<<-EOT\n" + body + Pad(indent + 2) + "EOT" + null_suffix;
}

}  // namespace strata::plan_render
