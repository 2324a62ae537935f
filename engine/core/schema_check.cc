#include "engine/core/schema_check.h"

#include <set>

#include <fmt/format.h>

#include "engine/expr/eval.h"
#include "engine/expr/nodes.h"
#include "providers/terraform_gaps.h"

namespace strata {
namespace {

const ObjectExpr* PropertiesObject(const ResourceConfig& r) { return dynamic_cast<const ObjectExpr*>(r.properties.get()); }

std::string KeyName(const ObjectExpr::Item& item) {
  const Value* key = item.key->AsLiteral();
  return key && key->IsString() ? key->AsString() : "";
}

const char* KindOf(const ResourceConfig& r) { return r.mode == ResourceMode::Data ? "data source" : "resource"; }

// A name Strata lacks is either one Terraform's provider has ("not supported by Strata
// yet") or a typo; Strata ignores neither.
constexpr const char* kRemoveOrAsk = "Remove it, or open an issue asking for it.";

void ReportUnknownType(const ResourceConfig& r, const SchemaSource& schemas, Diagnostics& diags) {
  const char* kind = KindOf(r);
  if (terraform_gaps::IsMissingType(r.mode, r.type)) {
    diags.Error(fmt::format("{} type not supported by Strata yet", r.mode == ResourceMode::Data ? "Data source" : "Resource"),
                fmt::format("The {} type \"{}\" is not supported by Strata yet: Terraform's provider has it, Strata does not. {}",
                            kind, r.type, kRemoveOrAsk),
                r.type_range);
    return;
  }
  diags.Error(fmt::format("Unknown {} type", kind),
              fmt::format("No provider offers a {} type named \"{}\".{}", kind, r.type,
                          DidYouMean(r.type, schemas.TypeNames(r.mode))),
              r.type_range);
}

// `path` is the argument's dotted path ("vpc_config.bogus"), `key` its last name, `where`
// the block it was met in ("" at the top level, "in vpc_config "), `names` those allowed there.
Diagnostic UnknownArgument(const ResourceConfig& r, const std::string& path, const std::string& key, const std::string& where,
                           const std::vector<std::string>& names, const SourceRange& range) {
  Diagnostic d;
  d.subject = range;
  if (r.mode == ResourceMode::Managed && path == "timeouts") {
    d.summary = "Timeouts belong beside properties";
    d.detail = fmt::format(
        "Terraform's timeouts block is written beside properties in Strata, not inside them: move it up one level, "
        "next to type and properties (timeouts: {{ create: \"30m\" }}) in resource \"{}\".",
        r.name);
    return d;
  }
  if (terraform_gaps::IsMissingArgument(r.mode, r.type, path)) {
    d.summary = "Argument not supported by Strata yet";
    d.detail = fmt::format(
        "Argument \"{}\" of {} is not supported by Strata yet: Terraform's provider accepts it, and Strata does not ignore an "
        "argument it cannot honour. {}",
        path, r.type, kRemoveOrAsk);
  } else {
    d.summary = "Unsupported argument";
    d.detail = fmt::format("An argument named \"{}\" is not expected {}in {} \"{}\" of type {}.{}", key, where, KindOf(r), r.name,
                           r.type, DidYouMean(key, names));
  }
  return d;
}

std::vector<std::string> MemberNames(const Type& object) {
  std::vector<std::string> names;
  for (const auto& [name, member] : object.attributes()) names.push_back(name);
  return names;
}

// The object type of a nested block: an object attribute, or a list or set of objects.
const Type* BlockType(const Type& type) {
  if (type.kind() == Type::Kind::Object) return &type;
  if ((type.kind() == Type::Kind::List || type.kind() == Type::Kind::Set) && type.element().kind() == Type::Kind::Object) {
    return &type.element();
  }
  return nullptr;
}

// Checks the literal keys of a nested block written in place (an object, or a sequence of
// objects) against its object type; a value computed by an expression is converted instead.
void CheckBlock(const ResourceConfig& r, const std::string& path, const Type& object, const Expr& value, Diagnostics& diags) {
  if (const auto* tuple = dynamic_cast<const TupleExpr*>(&value)) {
    for (const ExprPtr& item : tuple->items()) CheckBlock(r, path, object, *item, diags);
    return;
  }
  const auto* block = dynamic_cast<const ObjectExpr*>(&value);
  if (!block) return;
  std::vector<std::string> names = MemberNames(object);
  for (const auto& item : block->items()) {
    if (!item.key->AsLiteral()) continue;
    std::string key = KeyName(item);
    auto it = object.attributes().find(key);
    if (it == object.attributes().end()) {
      diags.Add(UnknownArgument(r, path + "." + key, key, fmt::format("in {} ", path), names, item.key->range()));
    } else if (const Type* nested = BlockType(it->second.type)) {
      CheckBlock(r, path + "." + key, *nested, *item.value, diags);
    }
  }
}

// Reports the names a block's evaluated value has and its type lacks: a block computed by an
// expression (the literal ones were checked at load), which the conversion would drop.
void CheckComputedBlock(const ResourceConfig& r, const std::string& path, const Type& type, const Value& value,
                        const SourceRange& range, const std::string& address, Diagnostics& diags) {
  const Type* object = BlockType(type);
  if (!object || !value.IsKnown() || value.IsNull()) return;
  if (value.IsSequence()) {
    for (const Value& element : value.AsList()) CheckComputedBlock(r, path, *object, element, range, address, diags);
    return;
  }
  if (!value.IsMapping()) return;
  for (const auto& [key, member] : value.AsMap()) {
    auto it = object->attributes().find(key);
    if (it == object->attributes().end()) {
      Diagnostic d = UnknownArgument(r, path + "." + key, key, fmt::format("in {} ", path), MemberNames(*object), range);
      d.address = address;
      diags.Add(std::move(d));
    } else {
      CheckComputedBlock(r, path + "." + key, it->second.type, member, range, address, diags);
    }
  }
}

}  // namespace

void CheckResourceAgainstSchema(const ResourceConfig& r, const SchemaSource& schemas, Diagnostics& diags) {
  if (r.type.empty()) return;
  const ResourceSchema* schema = schemas.Find(r.mode, r.type);
  const char* kind = KindOf(r);
  if (!schema) {
    ReportUnknownType(r, schemas, diags);
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
        diags.Add(UnknownArgument(r, key, key, "", names, item.key->range()));
      } else if (it->second.computed && !it->second.optional && !it->second.required) {
        diags.Error("Invalid argument",
                    fmt::format("\"{}\" is set by the provider and cannot be given in the configuration.", key), item.key->range());
      } else if (const Type* block = BlockType(it->second.type)) {
        CheckBlock(r, key, *block, *item.value, diags);
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
    SourceRange where = r.range;
    if (props) {
      for (const auto& item : props->items()) {
        if (KeyName(item) == key) where = item.value->range();
      }
    }
    CheckComputedBlock(r, key, it->second.type, value, where, address, diags);
    ConversionResult c = ConvertValue(value, it->second.type);
    if (c.ok()) {
      out.emplace(key, it->second.sensitive ? c.value.MarkSensitive() : c.value);
      continue;
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
