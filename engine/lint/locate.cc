#include "engine/lint/locate.h"

#include <filesystem>
#include <iterator>
#include <fstream>
#include <sstream>

#include "engine/config/yaml_expr.h"
#include "engine/config/yaml_node.h"
#include "engine/expr/nodes.h"

namespace strata::lint {
namespace {

namespace fs = std::filesystem;

// A manifest template with each `${...}` replaced by `$~~~...` of the same length, so that it
// parses as YAML (`{ name: ${x} }` does not) with every position where it was.
std::string MaskPlaceholders(std::string text) {
  for (size_t at = text.find("${"); at != std::string::npos; at = text.find("${", at)) {
    int depth = 0;
    size_t end = at + 1;
    for (; end < text.size(); ++end) {
      if (text[end] == '{') ++depth;
      if (text[end] == '}' && --depth == 0) break;
      if (text[end] == '\n') break;
    }
    if (end >= text.size() || text[end] != '}') break;
    for (size_t i = at + 1; i <= end; ++i) text[i] = '~';
    at = end + 1;
  }
  return text;
}

// Whether `written` (a manifest's metadata.name as written, placeholders masked by
// MaskPlaceholders) can render to `name`.
bool TemplateMatches(const std::string& written, const std::string& name) {
  size_t open = written.find("$~");
  if (open == std::string::npos) return written == name;
  size_t close = written.find_first_not_of('~', open + 1);
  if (close == std::string::npos) close = written.size();
  const std::string prefix = written.substr(0, open);
  const std::string rest = written.substr(close);
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  for (size_t at = prefix.size(); at <= name.size(); ++at) {
    if (TemplateMatches(rest, name.substr(at))) return true;
  }
  return false;
}

// The expression written for `step` inside `e`, or null.
const Expr* LocateStep(const Expr* e, const PathStep& step) {
  if (const auto* object = dynamic_cast<const ObjectExpr*>(e)) {
    const std::string* key = std::get_if<std::string>(&step);
    if (!key) return nullptr;
    for (const auto& item : object->items()) {
      const Value* literal = item.key ? item.key->AsLiteral() : nullptr;
      if (literal && literal->IsString() && literal->AsString() == *key) return item.value.get();
    }
    return nullptr;
  }
  if (const auto* tuple = dynamic_cast<const TupleExpr*>(e)) {
    const size_t* index = std::get_if<size_t>(&step);
    if (!index || *index >= tuple->items().size()) return nullptr;
    return tuple->items()[*index].get();
  }
  return nullptr;
}

}  // namespace

const Expr* WrittenAt(const ResourceConfig& resource, const Path& path) {
  const Expr* e = resource.properties.get();
  for (const auto& step : path) {
    if (!e) return nullptr;
    e = LocateStep(e, step);
  }
  return e;
}

struct Locator::ManifestFiles {
  struct Document {
    std::string file;
    YamlNode node;
  };
  std::map<std::string, std::string> texts;  // file → text (YamlFile views it)
  std::vector<YamlTree> trees;                // the storage of the documents' nodes
  std::vector<Document> documents;
};

Locator::Locator() = default;
Locator::~Locator() = default;

const Locator::ManifestFiles& Locator::ManifestsUnder(const std::string& dir) {
  auto& slot = manifests_[dir];
  if (slot) return *slot;
  slot = std::make_unique<ManifestFiles>();
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && files.size() < 500; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && !name.empty() && name[0] == '.') {
      it.disable_recursion_pending();
      continue;
    }
    const std::string ext = it->path().extension().string();
    if ((ext == ".yaml" || ext == ".yml") && it->is_regular_file(ec)) files.push_back(it->path().lexically_normal().string());
  }
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string& kept = slot->texts[file];
    kept = MaskPlaceholders(text.str());
    if (kept.find("kind:") == std::string::npos) continue;
    // A template that is no YAML before it is rendered: positions fall back to the resource.
    YamlTree tree = ParseYaml(kept);
    if (tree.problem()) continue;
    for (const YamlNode& doc : tree.documents()) {
      if (doc.IsMap() && doc["kind"] && doc["metadata"] && doc["metadata"].IsMap() && doc["metadata"]["name"]) {
        slot->documents.push_back({file, doc});
      }
    }
    slot->trees.push_back(std::move(tree));
  }
  return *slot;
}

const std::vector<std::string>& Locator::Lines(const std::string& file) {
  auto [it, inserted] = lines_.try_emplace(file);
  if (inserted) {
    std::ifstream in(file, std::ios::binary);
    for (std::string text; std::getline(in, text);) it->second.push_back(text);
  }
  return it->second;
}

std::string Locator::Line(const std::string& file, int line) {
  const auto& lines = Lines(file);
  if (line < 1 || static_cast<size_t>(line) > lines.size()) return "";
  return lines[line - 1];
}

SourceRange Locator::LocateLine(const Instance& inst, const Path& path, int line) {
  SourceRange at = Locate(inst, path);
  if (!at.IsKnown() || line < 0) return at;
  const auto& lines = Lines(at.file);
  if (at.start.line < 1 || static_cast<size_t>(at.start.line) > lines.size()) return at;
  const std::string& first = lines[at.start.line - 1];
  size_t col = static_cast<size_t>(at.start.column - 1);
  if (col >= first.size() || (first[col] != '|' && first[col] != '>')) {
    // The string starts on its own line (the expression's range already skips the indicator).
    if (at.start.line + line > static_cast<int>(lines.size())) return at;
  } else {
    at.start.line += 1;  // block scalar: its text starts on the next line
  }
  at.start.line += line;
  if (static_cast<size_t>(at.start.line) > lines.size()) return at;
  const std::string& text = lines[at.start.line - 1];
  at.start.column = static_cast<int>(text.find_first_not_of(' ') == std::string::npos ? 0 : text.find_first_not_of(' ')) + 1;
  at.start.byte = -1;
  at.end = at.start;
  return at;
}

SourceRange Locator::Locate(const Instance& inst, const Path& path, bool key) {
  const ResourceConfig& resource = *inst.node->resource;
  SourceRange best = resource.range;
  const Expr* e = resource.properties.get();
  size_t depth = 0;
  for (; e && depth < path.size(); ++depth) {
    best = e->range();
    if (key && depth + 1 == path.size()) {
      // The key expression of the last step, when `e` is a mapping written inline.
      if (const auto* object = dynamic_cast<const ObjectExpr*>(e); object && std::holds_alternative<std::string>(path[depth])) {
        for (const auto& item : object->items()) {
          const Value* literal = item.key ? item.key->AsLiteral() : nullptr;
          if (literal && literal->IsString() && literal->AsString() == std::get<std::string>(path[depth])) return item.key->range();
        }
      }
    }
    const Expr* next = LocateStep(e, path[depth]);
    if (!next) break;
    e = next;
  }
  if (e && depth == path.size()) return e->range();
  if (e) best = e->range();
  // Into a manifest file of the module's folder.
  if (inst.type != "kubernetes_manifest" || path.empty() || path[0] != PathStep{std::string("manifest")}) return best;
  auto kind = StringAt(*inst.value, {"manifest", "kind"});
  auto name = StringAt(*inst.value, {"manifest", "metadata", "name"});
  const auto& module = inst.stage->loaded->graph->modules[inst.node->module];
  if (!kind || !name || !module.config) return best;
  const ManifestFiles& files = ManifestsUnder(module.config->dir);
  for (const auto& doc : files.documents) {
    if (!doc.node["kind"].IsScalar() || doc.node["kind"].Scalar() != *kind) continue;
    const YamlNode written = doc.node["metadata"]["name"];
    if (!written.IsScalar() || !TemplateMatches(written.Scalar(), *name)) continue;
    YamlFile file{doc.file, files.texts.at(doc.file)};
    YamlNode at = doc.node;
    SourceRange found = NodeRange(file, at);
    for (size_t i = 1; i < path.size(); ++i) {
      YamlNode next;
      if (const std::string* key = std::get_if<std::string>(&path[i])) {
        if (!at.IsMap() || !at[*key]) break;
        next = at[*key];
      } else {
        size_t index = std::get<size_t>(path[i]);
        if (!at.IsSequence() || index >= at.size()) break;
        auto item = at.begin();
        std::advance(item, static_cast<std::ptrdiff_t>(index));
        next = *item;
      }
      at = next;
      found = NodeRange(file, at);
    }
    return found;
  }
  return best;
}

}  // namespace strata::lint
