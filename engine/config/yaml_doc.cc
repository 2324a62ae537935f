#include "engine/config/yaml_doc.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "engine/base/file.h"
#include "engine/expr/eval.h"
#include "engine/expr/functions/util.h"

namespace strata {

namespace {

// The usual causes of a YAML error in a module file: an unquoted ${...} holding ": " (a for
// expression, a conditional) or starting with a flow indicator; a tab in the indentation.
std::string YamlHint(const std::string& text, const YamlMark& mark) {
  if (mark.line < 0) return "";
  if (mark.pos >= 0 && static_cast<size_t>(mark.pos) < text.size() && text[mark.pos] == '\t') {
    return " YAML indents with spaces, not tabs: replace the tab with spaces.";
  }
  size_t start = 0;
  for (int i = 0; i < mark.line && start != std::string::npos; ++i) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos) return "";
  std::string line = text.substr(start, text.find('\n', start) - start);
  if (line.find("${") == std::string::npos && line.find("%{") == std::string::npos) return "";
  return " An expression that contains \": \" (as in a for expression), or that starts with { or [, must be "
         "quoted in YAML: write \"${...}\" (escape inner double quotes as \\\") or use a block scalar (|).";
}

// The text must be UTF-8 without NUL bytes: anything else is not a YAML file (a binary
// file, or a path that names the wrong file). The error gives the first bad byte's position.
bool CheckIsText(const std::string& path, const std::string& text, Diagnostics& diags) {
  size_t bad = std::min(text.find('\0'), functions::FirstInvalidUtf8(text));
  if (bad == std::string::npos) return true;
  size_t line_start = text.rfind('\n', bad);  // text[bad] is not a newline
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
  int column = 1 + static_cast<int>(bad - line_start);
  int byte = static_cast<int>(bad);
  diags.Error("Not a text file",
              fmt::format("{} is not UTF-8 text: it holds {} at line {}, column {}. Module files, strata.yaml and "
                          "-var-files are YAML in UTF-8; check that the path names the file you meant.",
                          path, text[bad] == '\0' ? "a NUL byte" : "a byte that is not valid UTF-8", line, column),
              SourceRange{path, {line, column, byte}, {line, column + 1, byte + 1}});
  return false;
}

std::string Capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

void ReportYamlProblem(const std::string& path, const std::string& text, const YamlParseProblem& problem,
                       Diagnostics& diags) {
  const YamlMark& mark = problem.mark;
  SourceRange at = mark.line >= 0 ? SourceRange{path, {mark.line + 1, mark.column + 1, mark.pos}, {mark.line + 1, mark.column + 2, mark.pos + 1}}
                                  : SourceRange{path, {1, 1, 0}, {1, 2, 1}};
  std::string detail = Capitalized(problem.message) + ".";
  switch (problem.kind) {
    case YamlParseProblem::Kind::Syntax: diags.Error("Invalid YAML", detail + YamlHint(text, mark), at); return;
    case YamlParseProblem::Kind::TooDeep: diags.Error("YAML nested too deeply", detail, at); return;
    case YamlParseProblem::Kind::TooManyValues: diags.Error("YAML aliases expand too far", detail, at); return;
  }
}

}  // namespace

std::optional<YamlDocument> ReadYamlDocument(const std::string& path, SourceRegistry& sources, Diagnostics& diags,
                                             const ForeignFileCheck& foreign) {
  std::optional<std::string> read = base::ReadFile(path);
  if (!read) {
    diags.Error("Cannot read file", fmt::format("Could not open {}.", path));
    return std::nullopt;
  }
  std::string text = std::move(*read);
  // Checked before the text is registered: a diagnostic shows registered lines, and the
  // bytes of a binary file have no place on a terminal.
  if (!CheckIsText(path, text, diags)) return std::nullopt;
  YamlDocument doc;
  doc.text = std::move(text);
  sources.Add(path, doc.text);
  doc.file = YamlFile{path, doc.text};
  doc.tree = ParseYaml(doc.text);
  if (doc.tree.problem()) {
    ReportYamlProblem(path, doc.text, *doc.tree.problem(), diags);
    return std::nullopt;
  }
  const std::vector<YamlNode>& documents = doc.tree.documents();
  if (std::optional<ForeignFile> problem = foreign ? foreign(documents) : std::nullopt) {
    diags.Error(problem->summary, problem->detail, SourceRange{path, {1, 1, 0}, {1, 2, 1}});
    return std::nullopt;
  }
  if (documents.size() > 1) {
    diags.Error("Several YAML documents in one file",
                "A module file holds one mapping; split the documents (---) into separate files.",
                SourceRange{path, {1, 1, 0}, {1, 2, 1}});
    return std::nullopt;
  }
  doc.root = documents.empty() ? NullYamlNode() : documents[0];
  return doc;
}

void CheckKeys(const YamlFile& file, const YamlNode& node, const std::vector<std::string>& allowed,
               const std::string& where, Diagnostics& diags) {
  std::map<std::string, SourceRange> seen;
  for (const auto& kv : node) {
    std::optional<std::string> unique = MappingKey(file, kv.first, seen, diags);
    if (!unique) continue;
    const std::string& key = *unique;
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    diags.Error("Unsupported argument",
                fmt::format("\"{}\" is not expected in {}.{} Expected one of: {}.", key, where, DidYouMean(key, allowed), list),
                NodeRange(file, kv.first));
  }
}

}  // namespace strata
