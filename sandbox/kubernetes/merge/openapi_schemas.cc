#include "sandbox/kubernetes/merge/openapi_schemas.h"

#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>

namespace strata::sandbox::k8s {
namespace {

constexpr std::string_view kRefPrefix = "#/definitions/";
constexpr const char* kObjectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

std::string GetString(const Json& schema, const char* member) {
  auto it = schema.find(member);
  return it != schema.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Turns schema nodes into type nodes held in one arena. `resolve_ref` builds (or finds) the
// node of a `$ref` target; CRD schemas have none.
class NodeBuilder {
 public:
  using RefResolver = std::function<const TypeNode*(const std::string& name)>;

  NodeBuilder(std::deque<TypeNode>& arena, RefResolver resolve_ref)
      : arena_(arena), resolve_ref_(std::move(resolve_ref)) {}

  const TypeNode* Build(const Json& schema) {
    if (!schema.is_object()) return UntypedNode();
    const std::string ref = GetString(schema, "$ref");
    if (!ref.empty() && resolve_ref_) {
      if (ref.rfind(kRefPrefix, 0) == 0) return resolve_ref_(ref.substr(kRefPrefix.size()));
      return UntypedNode();
    }
    TypeNode& node = arena_.emplace_back();
    Fill(schema, node);
    return &node;
  }

  // Fills `node` from `schema` (not a $ref).
  void Fill(const Json& schema, TypeNode& node) {
    const std::string type = GetString(schema, "type");
    if (type == "array") return FillList(schema, node);
    if (type == "object" || schema.contains("properties") || schema.contains("additionalProperties")) {
      return FillObject(schema, node);
    }
    if (schema.value("x-kubernetes-int-or-string", false) || type == "string" || type == "integer" ||
        type == "number" || type == "boolean") {
      node.kind = TypeNode::Kind::kScalar;
      return;
    }
    // No type at all (JSON, RawExtension-like, allOf…): whatever the value is.
    if (auto all_of = schema.find("allOf"); all_of != schema.end() && all_of->is_array() && all_of->size() == 1) {
      return Fill((*all_of)[0], node);
    }
    node.kind = TypeNode::Kind::kUntyped;
  }

 private:
  void FillObject(const Json& schema, TypeNode& node) {
    node.kind = TypeNode::Kind::kObject;
    node.atomic = GetString(schema, "x-kubernetes-map-type") == "atomic";
    if (auto properties = schema.find("properties"); properties != schema.end() && properties->is_object()) {
      for (const auto& [name, property] : properties->items()) {
        node.fields[name] = Build(property);
        if (property.is_object() && property.contains("default")) node.defaults[name] = property["default"];
      }
    }
    auto additional = schema.find("additionalProperties");
    if (additional != schema.end() && additional->is_object()) {
      node.elements = Build(*additional);
    } else {
      node.elements = nullptr;  // untyped: unknown members keep their values, granular
    }
  }

  void FillList(const Json& schema, TypeNode& node) {
    node.kind = TypeNode::Kind::kList;
    auto items = schema.find("items");
    node.items = items != schema.end() ? Build(*items) : UntypedNode();
    const std::string list_type = GetString(schema, "x-kubernetes-list-type");
    if (list_type == "map") {
      node.list_type = ListType::kMap;
      if (auto keys = schema.find("x-kubernetes-list-map-keys"); keys != schema.end() && keys->is_array()) {
        for (const Json& key : *keys) {
          if (key.is_string()) node.keys.push_back(key.get<std::string>());
        }
      }
    } else if (list_type == "set") {
      node.list_type = ListType::kSet;
    } else if (list_type.empty()) {
      // Strategic-merge-patch markers read as list types, as kube-openapi's schema
      // conversion does: merge + key is a map-list, merge alone a set.
      const std::string strategy = GetString(schema, "x-kubernetes-patch-strategy");
      if (strategy == "merge" || strategy == "merge,retainKeys") {
        const std::string key = GetString(schema, "x-kubernetes-patch-merge-key");
        node.list_type = key.empty() ? ListType::kSet : ListType::kMap;
        if (!key.empty()) node.keys.push_back(key);
      }
    }
    if (node.list_type == ListType::kMap && node.keys.empty()) node.list_type = ListType::kAtomic;
  }

  std::deque<TypeNode>& arena_;
  RefResolver resolve_ref_;
};

}  // namespace

struct OpenApiSchemas::Impl {
  Json definitions;
  std::map<std::string, std::string> kinds;  // "group/version/Kind" -> definition name
  std::mutex mutex;
  std::deque<TypeNode> arena;  // a deque: nodes never move as it grows
  std::map<std::string, const TypeNode*> built;

  // Called with `mutex` held.
  const TypeNode* Definition(const std::string& name) {
    if (auto it = built.find(name); it != built.end()) return it->second;
    auto def = definitions.find(name);
    if (def == definitions.end()) return UntypedNode();
    TypeNode& node = arena.emplace_back();
    built[name] = &node;  // before filling: definitions refer to themselves (JSONSchemaProps)
    NodeBuilder builder(arena, [this](const std::string& ref) { return Definition(ref); });
    if (def->contains("$ref")) {
      node = *builder.Build(*def);
    } else {
      builder.Fill(*def, node);
    }
    return &node;
  }
};

base::Result<OpenApiSchemas, std::string> OpenApiSchemas::FromSwagger(Json document) {
  if (!document.is_object() || !document.contains("definitions") || !document["definitions"].is_object()) {
    return std::string("the OpenAPI document has no \"definitions\" object (is it a swagger.json?)");
  }
  auto impl = std::make_shared<Impl>();
  impl->definitions = std::move(document["definitions"]);
  for (const auto& [name, definition] : impl->definitions.items()) {
    auto gvks = definition.find("x-kubernetes-group-version-kind");
    if (gvks == definition.end() || !gvks->is_array()) continue;
    for (const Json& gvk : *gvks) {
      impl->kinds[GetString(gvk, "group") + "/" + GetString(gvk, "version") + "/" + GetString(gvk, "kind")] = name;
    }
  }
  return OpenApiSchemas(std::move(impl));
}

base::Result<OpenApiSchemas, std::string> OpenApiSchemas::LoadSwaggerFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read the OpenAPI document " + path;
  std::stringstream text;
  text << in.rdbuf();
  Json document = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return "the OpenAPI document " + path + " is not valid JSON";
  auto schemas = FromSwagger(std::move(document));
  if (!schemas.ok()) return path + ": " + schemas.error();
  return schemas;
}

std::optional<ObjectType> OpenApiSchemas::Lookup(const std::string& name) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->definitions.contains(name)) return std::nullopt;
  return ObjectType(impl_, impl_->Definition(name));
}

std::optional<std::string> OpenApiSchemas::DefinitionFor(const std::string& group, const std::string& version,
                                                         const std::string& kind) const {
  auto it = impl_->kinds.find(group + "/" + version + "/" + kind);
  if (it == impl_->kinds.end()) return std::nullopt;
  return it->second;
}

ObjectType OpenApiSchemas::ForCustomResource(const Json& open_api_v3_schema) const {
  // The custom resource's nodes live in their own arena, which also keeps the built-in
  // definitions (ObjectMeta) alive.
  struct Owner {
    std::shared_ptr<Impl> builtins;
    std::deque<TypeNode> arena;
  };
  auto owner = std::make_shared<Owner>();
  owner->builtins = impl_;
  const TypeNode* object_meta = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    object_meta = impl_->Definition(kObjectMeta);
  }
  NodeBuilder builder(owner->arena, nullptr);
  TypeNode& root = owner->arena.emplace_back();
  if (open_api_v3_schema.is_object()) builder.Fill(open_api_v3_schema, root);
  if (root.kind != TypeNode::Kind::kObject) {
    root = TypeNode();
    root.kind = TypeNode::Kind::kObject;
  }
  TypeNode& scalar = owner->arena.emplace_back();
  scalar.kind = TypeNode::Kind::kScalar;
  root.fields["apiVersion"] = &scalar;
  root.fields["kind"] = &scalar;
  root.fields["metadata"] = object_meta;
  return ObjectType(owner, &root);
}

}  // namespace strata::sandbox::k8s
