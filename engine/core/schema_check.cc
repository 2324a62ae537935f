#include "engine/core/schema_check.h"

#include <set>

#include <fmt/format.h>

#include "engine/expr/eval.h"
#include "engine/expr/nodes.h"

namespace strata {
namespace {

const ObjectExpr* PropertiesObject(const ResourceConfig& r) { return dynamic_cast<const ObjectExpr*>(r.properties.get()); }

std::string KeyName(const ObjectExpr::Item& item) {
  const Value* key = item.key->AsLiteral();
  return key && key->IsString() ? key->AsString() : "";
}

}  // namespace

void CheckResourceAgainstSchema(const ResourceConfig& r, const SchemaSource& schemas, Diagnostics& diags) {
  if (r.type.empty()) return;
  const ResourceSchema* schema = schemas.Find(r.mode, r.type);
  const char* kind = r.mode == ResourceMode::Data ? "data source" : "resource";
  if (!schema) {
    diags.Error(fmt::format("Unknown {} type", kind),
                fmt::format("No provider offers a {} type named \"{}\".{}", kind, r.type, DidYouMean(r.type, schemas.TypeNames(r.mode))),
                r.type_range);
    return;
  }
  std::vector<std::string> names;
  for (const auto& [name, a] : schema->attributes) names.push_back(name);
  const ObjectExpr* props = PropertiesObject(r);
  std::set<std::string> given;
  if (props) {
    for (const auto& item : props->items()) {
      if (!item.key->AsLiteral()) continue;  // a computed key is checked after evaluation
      std::string key = KeyName(item);
      given.insert(key);
      auto it = schema->attributes.find(key);
      if (it == schema->attributes.end()) {
        if (schema->dynamic) continue;
        diags.Error("Unsupported argument",
                    fmt::format("An argument named \"{}\" is not expected in {} \"{}\" of type {}.{}", key, kind, r.name, r.type,
                                DidYouMean(key, names)),
                    item.key->range());
      } else if (it->second.computed && !it->second.optional && !it->second.required) {
        diags.Error("Invalid argument",
                    fmt::format("\"{}\" is set by the provider and cannot be given in the configuration.", key), item.key->range());
      }
    }
  }
  for (const auto& [name, a] : schema->attributes) {
    if (a.required && !given.count(name)) {
      diags.Error("Missing required argument",
                  fmt::format("The {} \"{}\" of type {} needs the argument \"{}\".", kind, r.name, r.type, name), r.range);
    }
  }
}

Value ConformToSchema(const ResourceConfig& r, const ResourceSchema& schema, const Value& properties, const std::string& address,
                      Diagnostics& diags) {
  if (!properties.IsMapping()) return properties;
  const ObjectExpr* props = PropertiesObject(r);
  ValueMap out;
  for (const auto& [key, value] : properties.AsMap()) {
    auto it = schema.attributes.find(key);
    if (it == schema.attributes.end()) {
      out.emplace(key, value);
      continue;
    }
    ConversionResult c = ConvertValue(value, it->second.type);
    if (c.ok()) {
      out.emplace(key, it->second.sensitive ? c.value.MarkSensitive() : c.value);
      continue;
    }
    SourceRange where = r.range;
    if (props) {
      for (const auto& item : props->items()) {
        if (KeyName(item) == key) where = item.value->range();
      }
    }
    Diagnostic d;
    d.summary = "Incorrect attribute value type";
    d.detail = fmt::format("Inappropriate value for attribute \"{}\": {}.", key, c.error);
    d.subject = where;
    d.address = address;
    diags.Add(std::move(d));
    out.emplace(key, Value::Unknown());
  }
  return Value::Object(std::move(out));
}

Value PlannedInstanceValue(const ResourceSchema& schema, const Value& properties) {
  ValueMap out = properties.IsMapping() ? properties.AsMap() : ValueMap{};
  for (const auto& [name, a] : schema.attributes) {
    if (out.count(name)) continue;
    Value v = a.computed ? Value::Unknown() : Value::Null();
    out.emplace(name, a.sensitive ? v.MarkSensitive() : v);
  }
  return Value::Object(std::move(out));
}

}  // namespace strata
