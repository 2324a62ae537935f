#include "providers/attributes.h"

namespace strata::attrs {


Value Get(const Value& v, const std::string& name) {
  if (!v.IsMapping()) return Value();
  const ValueMap& m = v.AsMap();
  auto it = m.find(name);
  return it == m.end() ? Value() : it->second;
}

Value With(const Value& v, const std::string& name, Value value) {
  ValueMap m = v.IsMapping() ? v.AsMap() : ValueMap{};
  m[name] = std::move(value);
  return Value::Object(std::move(m));
}

std::string GetString(const Value& v, const std::string& name, const std::string& fallback) {
  Value a = Get(v, name);
  if (a.IsString()) return a.AsString();
  if (a.IsNumber()) return FormatNumber(a.AsExactNumber());
  if (a.IsBool()) return a.AsBool() ? "true" : "false";
  return fallback;
}

ValueList Blocks(const Value& v, const std::string& name) {
  Value list = Get(v, name);
  return list.IsSequence() ? list.AsList() : ValueList{};
}

Value FirstBlock(const Value& v, const std::string& name) {
  ValueList blocks = Blocks(v, name);
  return blocks.empty() ? Value() : blocks.front();
}

std::optional<double> GetNumber(const Value& v, const std::string& name) {
  Value a = Get(v, name);
  if (a.IsNumber()) return a.AsNumber();
  if (a.IsString()) {
    try {
      size_t used = 0;
      double d = std::stod(a.AsString(), &used);
      if (used == a.AsString().size()) return d;
    } catch (...) {
    }
  }
  return std::nullopt;
}

bool GetBool(const Value& v, const std::string& name, bool fallback) {
  Value a = Get(v, name);
  if (a.IsBool()) return a.AsBool();
  if (a.IsString()) {
    if (a.AsString() == "true") return true;
    if (a.AsString() == "false") return false;
  }
  return fallback;
}

std::map<std::string, std::string> GetStringMap(const Value& v, const std::string& name) {
  std::map<std::string, std::string> out;
  Value a = Get(v, name);
  if (!a.IsMapping()) return out;
  for (const auto& [k, item] : a.AsMap()) {
    Value holder = Value::Object({{"x", item}});
    out[k] = GetString(holder, "x");
  }
  return out;
}

std::vector<std::string> GetStringList(const Value& v, const std::string& name) {
  std::vector<std::string> out;
  Value a = Get(v, name);
  if (!a.IsSequence()) return out;
  for (const Value& item : a.AsList()) {
    out.push_back(GetString(Value::Object({{"x", item}}), "x"));
  }
  return out;
}

Value StringListValue(const std::vector<std::string>& items) {
  ValueList out;
  for (const std::string& item : items) out.push_back(Value::String(item));
  return Value::List(std::move(out));
}

Value NullIfEmptyAndUnset(Value read, const Value& prior) {
  if (prior.IsNull() && (read.IsNull() || read.AsList().empty())) return Value();
  return read;
}

Value Normalize(const ResourceSchema& schema, const Value& v) {
  if (v.IsNull()) return v;
  ValueMap out;
  for (const auto& [name, a] : schema.attributes) {
    Value item = Get(v, name);
    if (a.sensitive && !item.IsNull()) item = item.MarkSensitive();
    out[name] = item;
  }
  return Value::Object(std::move(out));
}

Diagnostics Error(const std::string& summary, const std::string& detail) {
  Diagnostics d;
  d.Error(summary, detail);
  return d;
}

std::vector<std::string> SplitImportId(const std::string& id, char separator) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t at = id.find(separator, start);
    parts.push_back(id.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

namespace {
Type T(const char* text) { return *ParseType(text).type; }
}  // namespace

AttributeSchema Required(const char* type, bool force_new) {
  AttributeSchema a;
  a.type = T(type);
  a.required = true;
  a.force_new = force_new;
  return a;
}

AttributeSchema Optional(const char* type, bool force_new) {
  AttributeSchema a;
  a.type = T(type);
  a.optional = true;
  a.force_new = force_new;
  return a;
}

AttributeSchema OptionalComputed(const char* type, bool force_new) {
  AttributeSchema a = Optional(type, force_new);
  a.computed = true;
  return a;
}

AttributeSchema Computed(const char* type, bool sensitive) {
  AttributeSchema a;
  a.type = T(type);
  a.computed = true;
  a.sensitive = sensitive;
  return a;
}

ResourceSchema ManagedSchema(const char* type, std::map<std::string, AttributeSchema> attributes) {
  ResourceSchema s;
  s.type = type;
  s.attributes = std::move(attributes);
  s.attributes["id"] = Computed("string");
  return s;
}

}  // namespace strata::attrs
