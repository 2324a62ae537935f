#include "providers/schema_json.h"

namespace strata {

namespace {

using nlohmann::json;

bool IsObjectCollection(const Type& type) {
  return (type.kind() == Type::Kind::List || type.kind() == Type::Kind::Set) &&
         type.element().kind() == Type::Kind::Object;
}

// A type in cty's JSON form.
json TypeJson(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::Any: return "dynamic";
    case Type::Kind::String: return "string";
    case Type::Kind::Number: return "number";
    case Type::Kind::Bool: return "bool";
    case Type::Kind::List: return json::array({"list", TypeJson(type.element())});
    case Type::Kind::Set: return json::array({"set", TypeJson(type.element())});
    case Type::Kind::Map: return json::array({"map", TypeJson(type.element())});
    case Type::Kind::Tuple: {
      json elements = json::array();
      for (const Type& e : type.elements()) elements.push_back(TypeJson(e));
      return json::array({"tuple", elements});
    }
    case Type::Kind::Object: {
      json attributes = json::object();
      json optional = json::array();
      for (const auto& [name, a] : type.attributes()) {
        attributes[name] = TypeJson(a.type);
        if (a.optional) optional.push_back(name);
      }
      json out = json::array({"object", attributes});
      if (!optional.empty()) out.push_back(optional);
      return out;
    }
  }
  return "dynamic";
}

json NestedBlock(const Type& object, const char* nesting_mode);

// The block of an object type nested in a block: its lists and sets of objects are blocks.
json BlockOfObject(const Type& object) {
  json attributes = json::object(), block_types = json::object();
  for (const auto& [name, member] : object.attributes()) {
    if (IsObjectCollection(member.type)) {
      block_types[name] = NestedBlock(member.type.element(), member.type.kind() == Type::Kind::Set ? "set" : "list");
      continue;
    }
    json a = {{"type", TypeJson(member.type)}, {"description_kind", "plain"}};
    a[member.optional ? "optional" : "required"] = true;
    attributes[name] = a;
  }
  json block = {{"description_kind", "plain"}};
  if (!attributes.empty()) block["attributes"] = attributes;
  if (!block_types.empty()) block["block_types"] = block_types;
  return block;
}

json NestedBlock(const Type& object, const char* nesting_mode) {
  return {{"nesting_mode", nesting_mode}, {"block", BlockOfObject(object)}};
}

json SchemaJson(const ResourceSchema& schema) {
  json attributes = json::object(), block_types = json::object();
  for (const auto& [name, a] : schema.attributes) {
    bool settable = a.required || a.optional;
    if (settable && IsObjectCollection(a.type)) {
      block_types[name] = NestedBlock(a.type.element(), a.type.kind() == Type::Kind::Set ? "set" : "list");
      continue;
    }
    json attribute = {{"type", TypeJson(a.type)}, {"description_kind", "plain"}};
    if (a.required) attribute["required"] = true;
    if (a.optional) attribute["optional"] = true;
    if (a.computed) attribute["computed"] = true;
    if (a.sensitive) attribute["sensitive"] = true;
    if (!a.description.empty()) attribute["description"] = a.description;
    attributes[name] = attribute;
  }
  json block = {{"description_kind", "plain"}};
  if (!attributes.empty()) block["attributes"] = attributes;
  if (!block_types.empty()) block["block_types"] = block_types;
  return {{"version", schema.version}, {"block", block}};
}

}  // namespace

json ProviderSchemasJson(const ProviderRegistry& registry) {
  json providers = json::object();
  for (const std::string& name : registry.Names()) {
    const ProviderSchema* schema = registry.SchemaOf(name);
    if (!schema) continue;
    json resources = json::object(), data_sources = json::object();
    for (const ResourceSchema& r : schema->resources) resources[r.type] = SchemaJson(r);
    for (const ResourceSchema& d : schema->data_sources) data_sources[d.type] = SchemaJson(d);
    providers["strata/" + name] = {{"provider", SchemaJson(schema->provider)},
                                   {"resource_schemas", resources},
                                   {"data_source_schemas", data_sources}};
  }
  return {{"format_version", "1.0"}, {"provider_schemas", providers}};
}

}  // namespace strata
