#include "engine/diag/render.h"

#include <algorithm>

#include <fmt/format.h>

namespace strata {
namespace {

const char* kRed = "\x1b[31m";
const char* kYellow = "\x1b[33m";
const char* kBold = "\x1b[1m";
const char* kReset = "\x1b[0m";

std::string Paint(const RenderOptions& o, const char* code, const std::string& text) {
  return o.color ? std::string(code) + text + kReset : text;
}

// The columns a code point takes in a terminal: 2 for East Asian wide and fullwidth
// characters (CJK, Hangul, fullwidth forms, most emoji), 0 for combining accents, else 1.
int CodePointWidth(char32_t c) {
  if (c >= 0x300 && c <= 0x36F) return 0;
  bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
              (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
              (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
              (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
  return wide ? 2 : 1;
}

// What stands under text[begin, end) of a source line so that the caret lines up: a tab for
// a tab (the terminal expands both alike), else a space per column each character takes
// (positions count bytes; a UTF-8 character of 2 to 4 bytes takes one or two columns).
std::string Blank(std::string_view text, size_t begin, size_t end) {
  std::string out;
  end = std::min(end, text.size());
  for (size_t i = begin; i < end;) {
    unsigned char b = static_cast<unsigned char>(text[i]);
    size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (i + len > text.size()) len = 1;
    char32_t c = len == 1 ? b : b & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    if (b == '\t') {
      out += '\t';
    } else {
      out.append(static_cast<size_t>(CodePointWidth(c)), ' ');
    }
    i += len;
  }
  return out;
}

// The source line and a caret line under the subject; the underline stays on the first line.
std::string Snippet(const SourceRange& r, const SourceRegistry& sources) {
  std::string_view line = sources.Line(r.file, r.start.line);
  if (line.empty()) return "";
  std::string gutter = fmt::format("{:>5} | ", r.start.line);
  std::string out = gutter + std::string(line) + "\n";
  int first = std::max(1, r.start.column);
  int last = (r.end.line == r.start.line && r.end.column > first) ? r.end.column : first + 1;
  last = std::min<int>(last, static_cast<int>(line.size()) + 1);
  if (last <= first) last = first + 1;
  std::string pad = Blank(line, 0, static_cast<size_t>(first - 1));
  size_t under = Blank(line, static_cast<size_t>(first - 1), static_cast<size_t>(last - 1)).size();
  out += std::string(gutter.size() - 2, ' ') + "| " + pad + "^" + std::string(under > 1 ? under - 1 : 0, '~') + "\n";
  return out;
}

}  // namespace

std::string DisplayName(const std::string& file, const RenderOptions& o) {
  if (o.display_root.empty()) return file;
  std::string root = o.display_root.back() == '/' ? o.display_root : o.display_root + "/";
  return file.rfind(root, 0) == 0 ? file.substr(root.size()) : file;
}

std::string RenderDiagnostic(const Diagnostic& d, const SourceRegistry* sources,
                             const RenderOptions& o) {
  bool error = d.severity == Severity::Error;
  std::string out = Paint(o, error ? kRed : kYellow, error ? "Error: " : "Warning: ");
  out += Paint(o, kBold, d.summary) + "\n";
  if (d.subject.IsKnown() || !d.address.empty()) {
    out += "\n  on ";
    if (d.subject.IsKnown()) {
      out += fmt::format("{}:{}:{}", DisplayName(d.subject.file, o), d.subject.start.line, d.subject.start.column);
    }
    if (!d.address.empty()) out += (d.subject.IsKnown() ? ", in " : "") + d.address;
    out += ":\n";
    if (sources && d.subject.IsKnown()) out += Snippet(d.subject, *sources);
  }
  if (!d.detail.empty()) {
    std::string detail = d.detail;
    if (!o.display_root.empty()) {
      // Positions quoted inside the text (a cycle's chain) are shown relative too.
      std::string root = o.display_root.back() == '/' ? o.display_root : o.display_root + "/";
      for (size_t at = detail.find(root); at != std::string::npos; at = detail.find(root, at)) detail.erase(at, root.size());
    }
    out += "\n" + detail + "\n";
  }
  return out;
}

std::string RenderDiagnostics(const Diagnostics& diags, const SourceRegistry* sources,
                              const RenderOptions& options) {
  std::string out;
  for (const auto& d : diags) {
    if (!out.empty()) out += "\n";
    out += RenderDiagnostic(d, sources, options);
  }
  return out;
}

nlohmann::json DiagnosticToJson(const Diagnostic& d, const SourceRegistry* sources) {
  nlohmann::json j = {{"severity", d.severity == Severity::Error ? "error" : "warning"},
                      {"summary", d.summary},
                      {"detail", d.detail}};
  if (d.subject.IsKnown()) {
    j["range"] = {{"filename", d.subject.file},
                  {"start", {{"line", d.subject.start.line}, {"column", d.subject.start.column}, {"byte", d.subject.start.byte}}},
                  {"end", {{"line", d.subject.end.line}, {"column", d.subject.end.column}, {"byte", d.subject.end.byte}}}};
    if (sources) {
      j["snippet"] = {{"code", std::string(sources->Line(d.subject.file, d.subject.start.line))},
                      {"start_line", d.subject.start.line}};
    }
  }
  if (!d.address.empty()) j["address"] = d.address;
  return j;
}

nlohmann::json DiagnosticsToJson(const Diagnostics& diags, const SourceRegistry* sources) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : diags) list.push_back(DiagnosticToJson(d, sources));
  return {{"format_version", "1.0"},
          {"valid", !diags.HasErrors()},
          {"error_count", diags.ErrorCount()},
          {"warning_count", diags.size() - diags.ErrorCount()},
          {"diagnostics", std::move(list)}};
}

}  // namespace strata
