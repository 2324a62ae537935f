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
  std::string pad;
  for (int i = 1; i < first && i - 1 < static_cast<int>(line.size()); ++i) {
    pad += line[i - 1] == '\t' ? '\t' : ' ';
  }
  out += std::string(gutter.size() - 2, ' ') + "| " + pad + "^" + std::string(last - first - 1, '~') + "\n";
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
