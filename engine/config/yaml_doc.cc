#include "engine/config/yaml_doc.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/expr/eval.h"

namespace strata {

namespace {

// The usual cause of a YAML error in a module file: an unquoted ${...} holding ": " (a for
// expression, a conditional) or starting with a flow indicator.
std::string YamlHint(const std::string& text, const YAML::Mark& mark) {
  if (mark.line < 0) return "";
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

}  // namespace

std::optional<YamlDocument> ReadYamlDocument(const std::string& path, SourceRegistry& sources, Diagnostics& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.Error("Cannot read file", fmt::format("Could not open {}.", path));
    return std::nullopt;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  YamlDocument doc;
  doc.text = buffer.str();
  sources.Add(path, doc.text);
  doc.file = YamlFile{path, doc.text};
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(doc.text);
    if (docs.size() > 1) {
      diags.Error("Several YAML documents in one file",
                  "A module file holds one mapping; split the documents (---) into separate files.",
                  SourceRange{path, {1, 1, 0}, {1, 2, 1}});
      return std::nullopt;
    }
    doc.root = docs.empty() ? YAML::Node() : docs[0];
  } catch (const YAML::Exception& e) {
    SourceRange r{path, {e.mark.line + 1, e.mark.column + 1, e.mark.pos}, {e.mark.line + 1, e.mark.column + 2, e.mark.pos + 1}};
    std::string msg = e.msg;
    if (!msg.empty()) msg[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(msg[0])));
    diags.Error("Invalid YAML", msg + "." + YamlHint(doc.text, e.mark), e.mark.line >= 0 ? r : SourceRange{path, {1, 1, 0}, {1, 2, 1}});
    return std::nullopt;
  }
  return doc;
}

void CheckKeys(const YamlFile& file, const YAML::Node& node, const std::vector<std::string>& allowed,
               const std::string& where, Diagnostics& diags) {
  for (const auto& kv : node) {
    if (!kv.first.IsScalar()) continue;
    const std::string& key = kv.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    diags.Error("Unsupported argument",
                fmt::format("\"{}\" is not expected in {}.{} Expected one of: {}.", key, where, DidYouMean(key, allowed), list),
                NodeRange(file, kv.first));
  }
}

}  // namespace strata
