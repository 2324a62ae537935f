#include "engine/expr/functions/kubernetes_documents.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "engine/expr/functions/util.h"
#include "engine/expr/functions/yaml_value.h"
#include "engine/value/yaml_bounds.h"

namespace strata::functions {
namespace {

constexpr const char* kNeeds = "every Kubernetes object needs apiVersion, kind and metadata.name";

std::string Location(const ManifestSource& source, const YAML::Mark& mark) {
  int line = mark.line >= 0 ? mark.line + 1 : 1;
  int column = mark.column >= 0 ? mark.column + 1 : 1;
  std::string at = fmt::format("{}:{}:{}", source.name, line, column);
  if (source.rendered_lines_differ) at += " (a line of the rendered template, which adds or removes lines)";
  return at;
}

std::string YamlProblemText(const YamlProblem& problem) {
  switch (problem.kind) {
    case YamlProblem::Kind::Syntax: return "invalid YAML: " + problem.message;
    case YamlProblem::Kind::TooDeep: return "YAML nested too deeply: " + problem.message;
    case YamlProblem::Kind::TooManyValues: return "YAML aliases expand too far: " + problem.message;
  }
  return problem.message;
}

const char* NodeKindName(const YAML::Node& node) {
  if (node.IsSequence()) return "a list";
  if (node.IsScalar()) return "a single value";
  return "something else";
}

// The text of attribute `key` of `object` when it is a non-empty string; nullptr when it is
// absent or null; an error for anything else.
const std::string* StringAttribute(const Value& object, const std::string& key, const std::string& what,
                                   const std::string& location) {
  auto it = object.AsMap().find(key);
  if (it == object.AsMap().end() || it->second.IsNull()) return nullptr;
  if (!it->second.IsString()) {
    Fail(0, fmt::format("{}: {} must be a string, got {}", location, what, it->second.TypeName()));
  }
  return &it->second.AsString();
}

// Kubernetes names, namespaces and kinds never hold "/": the identity relies on it to stay
// unambiguous.
void RejectSlash(const std::string& text, const std::string& what, const std::string& location) {
  if (text.find('/') != std::string::npos) {
    Fail(0, fmt::format("{}: {} \"{}\" holds a \"/\", which Kubernetes does not allow there", location, what, text));
  }
}

// One object (a document, or an item of a list document) appended to `out`.
void AddObject(const YAML::Node& node, const ManifestSource& source, std::vector<KubernetesDocument>& out) {
  std::string location = Location(source, node.Mark());
  if (!node.IsMap()) {
    Fail(0, fmt::format("{}: a Kubernetes document must be a mapping (an object with apiVersion, kind and metadata), "
                        "got {}",
                        location, NodeKindName(node)));
  }
  Value object;
  try {
    object = YamlNodeToValue(node, YamlScalarRules::Kubernetes);
  } catch (const YamlValueError& e) {
    Fail(0, fmt::format("{}: {}", Location(source, e.mark), e.message));
  }
  std::string identity = KubernetesIdentity(object, location);
  out.push_back({std::move(identity), std::move(object), std::move(location)});
}

// A document: its object, or the items of a list (a top-level `items`, whatever the kind).
void AddDocument(const YAML::Node& doc, const ManifestSource& source, std::vector<KubernetesDocument>& out) {
  if (!doc.IsMap() || !doc["items"]) {
    AddObject(doc, source, out);
    return;
  }
  const YAML::Node& items = doc["items"];
  if (items.IsNull()) return;
  if (!items.IsSequence()) {
    Fail(0, fmt::format("{}: items of a list document must be a list of objects, got {}", Location(source, items.Mark()),
                        NodeKindName(items)));
  }
  for (const auto& item : items) {
    if (item.IsMap() && item["items"]) {
      Fail(0, fmt::format("{}: a list inside a list document is not read (kubectl refuses it too); put its items in the "
                          "outer list",
                          Location(source, item.Mark())));
    }
    AddObject(item, source, out);
  }
}

}  // namespace

std::string KubernetesIdentity(const Value& object, const std::string& location) {
  const std::string* api_version = StringAttribute(object, "apiVersion", "apiVersion", location);
  if (!api_version || api_version->empty()) Fail(0, fmt::format("{}: the document has no apiVersion; {}", location, kNeeds));
  const std::string* kind = StringAttribute(object, "kind", "kind", location);
  if (!kind || kind->empty()) Fail(0, fmt::format("{}: the document has no kind; {}", location, kNeeds));
  RejectSlash(*kind, "kind", location);
  // apiVersion is "v1" (the core group) or "<group>/<version>".
  size_t slash = api_version->find('/');
  std::string group = slash == std::string::npos ? "core" : api_version->substr(0, slash);
  if (slash != std::string::npos &&
      (group.empty() || slash + 1 == api_version->size() || api_version->find('/', slash + 1) != std::string::npos)) {
    Fail(0, fmt::format("{}: apiVersion \"{}\" is not of the form <group>/<version> or v1", location, *api_version));
  }
  auto metadata = object.AsMap().find("metadata");
  if (metadata == object.AsMap().end() || metadata->second.IsNull()) {
    Fail(0, fmt::format("{}: the {} has no metadata; {}", location, *kind, kNeeds));
  }
  if (!metadata->second.IsMapping()) {
    Fail(0, fmt::format("{}: metadata must be a mapping, got {}", location, metadata->second.TypeName()));
  }
  const Value& meta = metadata->second;
  const std::string* name = StringAttribute(meta, "name", "metadata.name", location);
  if (!name || name->empty()) {
    if (StringAttribute(meta, "generateName", "metadata.generateName", location)) {
      Fail(0, fmt::format("{}: the {} has metadata.generateName and no metadata.name: the server picks its name when it "
                          "creates it, so it has no stable identity and cannot be one instance of for_each; give it a "
                          "metadata.name",
                          location, *kind));
    }
    Fail(0, fmt::format("{}: the {} has no metadata.name; {}", location, *kind, kNeeds));
  }
  RejectSlash(*name, "metadata.name", location);
  const std::string* ns = StringAttribute(meta, "namespace", "metadata.namespace", location);
  std::string namespace_name = ns ? *ns : "";
  RejectSlash(namespace_name, "metadata.namespace", location);
  return fmt::format("{}/{}/{}/{}", group, *kind, namespace_name, *name);
}

std::vector<KubernetesDocument> ReadKubernetesDocuments(const std::string& text, const ManifestSource& source) {
  BoundedYaml parsed = ParseBoundedYaml(text);
  if (const auto& problem = parsed.problem) {
    Fail(0, fmt::format("{}: {}", Location(source, problem->mark), YamlProblemText(*problem)));
  }
  std::vector<KubernetesDocument> out;
  for (const auto& doc : parsed.documents) {
    if (doc.IsNull()) continue;  // empty, only comments, or an explicit null
    AddDocument(doc, source, out);
  }
  return out;
}

}  // namespace strata::functions
