#include "providers/kubernetes/typed/typed_shape.h"

#include <cctype>

#include "engine/base/base64.h"
#include "engine/value/json.h"
#include "providers/attributes.h"
#include "providers/kubernetes/typed/quantity.h"
#include "providers/kubernetes/typed/terraform_names.h"

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;
using attrs::Get;

Type ListOf(Type element) { return Type::Collection(Type::Kind::List, std::move(element)); }
Type Primitive(Type::Kind kind) { return Type::Primitive(kind); }

// Terraform's metadata block: what a user writes, then what the server sets.
const char* const kMetaWritten[][2] = {
    {"name", "name"}, {"namespace", "namespace"}, {"labels", "labels"}, {"annotations", "annotations"},
    {"generate_name", "generateName"}};

// Digits alone, few enough to be a port or a count (a longer run stays a string).
bool AllDigits(const std::string& s) {
  if (s.empty() || s.size() > 15) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool IsSecretData(const CatalogKind& kind, const std::string& definition, const CatalogField& field) {
  return kind.kind == "Secret" && definition == kind.definition && field.name == "data";
}

// metadata {name, namespace, ...} → the manifest's metadata; `default_namespace` for a
// namespaced kind's own metadata (a pod template's has none).
Value MetaToK8s(const Value& block, const std::string& default_namespace) {
  if (!block.IsKnown()) return Value::Unknown();
  ValueMap out;
  for (const auto& [tf, k8s] : kMetaWritten) {
    Value v = Get(block, tf);
    if (!v.IsNull()) out[k8s] = v;
  }
  if (!default_namespace.empty() && !out.count("namespace")) out["namespace"] = Value::String(default_namespace);
  return Value::Object(std::move(out));
}

Value MetaFromK8s(const Json& object, const Json& live) {
  ValueMap out;
  for (const auto& [tf, k8s] : kMetaWritten) {
    out[tf] = object.contains(k8s) ? JsonToValue(object[k8s]) : Value();
  }
  auto from_live = [&](const char* key) { return live.contains(key) ? JsonToValue(live[key]) : Value(); };
  // The object's identity is in no manager's fields: it is the live object's.
  if (!object.contains("name")) out["name"] = from_live("name");
  if (!object.contains("namespace")) out["namespace"] = from_live("namespace");
  out["resource_version"] = from_live("resourceVersion");
  out["uid"] = from_live("uid");
  out["generation"] = from_live("generation");
  return Value::List({Value::Object(std::move(out))});
}

// Whether decoded Secret bytes are text a `data` string can hold: valid UTF-8 without
// control characters other than tab and line ends (else they stay base64 in binary_data).
bool IsText(const std::string& bytes) {
  for (size_t i = 0; i < bytes.size();) {
    auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return false;
      ++i;
      continue;
    }
    size_t extra = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 0;
    if (extra == 0 || c == 0xc0 || c == 0xc1 || c > 0xf4 || i + extra >= bytes.size()) return false;
    for (size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(bytes[i + k]) & 0xc0) != 0x80) return false;
    }
    // No overlong forms, surrogates or code points past U+10FFFF (what JSON text refuses).
    auto second = static_cast<unsigned char>(bytes[i + 1]);
    if ((c == 0xe0 && second < 0xa0) || (c == 0xed && second >= 0xa0) || (c == 0xf0 && second < 0x90) ||
        (c == 0xf4 && second >= 0x90)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

// The `index`th element of a known list (a block), else null.
Value ItemOf(const Value& list, size_t index) {
  if (!list.IsKnown() || !list.IsSequence() || index >= list.AsList().size()) return Value();
  return list.AsList()[index];
}

// `read`, or `prior` when both are quantities of one value in two spellings.
Value SameQuantity(const Value& read, const Value& prior) {
  if (read.IsString() && prior.IsKnown() && prior.IsString() && read.AsString() != prior.AsString() &&
      EquivalentQuantities(read.AsString(), prior.AsString())) {
    return prior;
  }
  return read;
}

}  // namespace

Type MetadataBlockType() {
  std::map<std::string, Type::Attribute> a;
  Type text = Primitive(Type::Kind::String);
  Type strings = Type::Collection(Type::Kind::Map, text);
  a["name"] = {text, true, std::nullopt};
  a["namespace"] = {text, true, std::nullopt};
  a["generate_name"] = {text, true, std::nullopt};
  a["labels"] = {strings, true, std::nullopt};
  a["annotations"] = {strings, true, std::nullopt};
  a["resource_version"] = {text, true, std::nullopt};
  a["uid"] = {text, true, std::nullopt};
  a["generation"] = {Primitive(Type::Kind::Number), true, std::nullopt};
  return ListOf(Type::ObjectOf(std::move(a)));
}

TypedShape::TypedShape(const TypedCatalog& catalog, const CatalogKind& kind) : catalog_(catalog), kind_(kind) {
  for (const CatalogField& f : catalog_.Fields(kind_.definition)) {
    if (TerraformOmits(kind_.definition, f)) continue;
    AttributeSchema a;
    a.type = FieldType(f);
    if (f.name == "metadata") {
      a.required = true;
    } else {
      a.optional = true;
    }
    a.sensitive = IsSecretData(kind_, kind_.definition, f);
    attributes_[TerraformFieldName(kind_.definition, f)] = std::move(a);
  }
  if (kind_.kind == "Secret") {  // Terraform's: values already base64, sent in `data` as they are
    AttributeSchema binary;
    binary.type = Type::Collection(Type::Kind::Map, Primitive(Type::Kind::String));
    binary.optional = true;
    binary.sensitive = true;
    attributes_["binary_data"] = std::move(binary);
  }
}

Type TypedShape::BlockType(const std::string& definition) const {
  if (definition == kObjectMetaDefinition) return MetadataBlockType();
  auto cached = types_.find(definition);
  if (cached != types_.end()) return ListOf(cached->second);
  std::map<std::string, Type::Attribute> attributes;
  for (const CatalogField& f : catalog_.Fields(definition)) {
    if (TerraformOmits(definition, f)) continue;
    attributes[TerraformFieldName(definition, f)] = {FieldType(f), true, std::nullopt};
  }
  Type object = Type::ObjectOf(std::move(attributes));
  types_[definition] = object;
  return ListOf(object);
}

Type TypedShape::FieldType(const CatalogField& f) const {
  switch (f.shape) {
    case FieldShape::String:
    case FieldShape::IntOrString:
    case FieldShape::Quantity:
      return Primitive(Type::Kind::String);
    case FieldShape::Integer:
    case FieldShape::Number:
      return Primitive(Type::Kind::Number);
    case FieldShape::Bool:
      return Primitive(Type::Kind::Bool);
    case FieldShape::Any:
      return Type::Any();
    case FieldShape::Object:
    case FieldShape::ObjectList:
      return BlockType(f.definition);
    case FieldShape::StringList:
      return ListOf(Primitive(Type::Kind::String));
    case FieldShape::IntegerList:
      return ListOf(Primitive(Type::Kind::Number));
    case FieldShape::BoolList:
      return ListOf(Primitive(Type::Kind::Bool));
    case FieldShape::StringMap:
    case FieldShape::QuantityMap:
      return Type::Collection(Type::Kind::Map, Primitive(Type::Kind::String));
    case FieldShape::AnyMap:
      return Type::Collection(Type::Kind::Map, Type::Any());
  }
  return Type::Any();
}

Value TypedShape::ToManifest(const Value& typed) const {
  if (!typed.IsKnown()) return Value::Unknown();
  Value object = ObjectToK8s(kind_.definition, typed);
  if (!object.IsKnown()) return object;
  ValueMap out = object.IsNull() ? ValueMap{} : object.AsMap();
  out["apiVersion"] = Value::String(kind_.api_version);
  out["kind"] = Value::String(kind_.kind);
  return Value::Object(std::move(out));
}

Value TypedShape::ObjectToK8s(const std::string& definition, const Value& block) const {
  if (!block.IsKnown()) return Value::Unknown();
  ValueMap out;
  for (const CatalogField& f : catalog_.Fields(definition)) {
    if (TerraformOmits(definition, f)) continue;
    Value v = Get(block, TerraformFieldName(definition, f));
    if (v.IsNull()) continue;
    if (IsSecretData(kind_, definition, f) && v.IsWhollyKnown()) {
      ValueMap encoded;
      for (const auto& [key, text] : v.AsMap()) {
        encoded[key] = text.IsString() ? Value::String(base::Base64Encode(text.AsString())) : text;
      }
      v = Value::Map(std::move(encoded)).MarkSensitive(v.IsSensitive());
    }
    Value k8s = FieldToK8s(f, v, &catalog_.Fields(definition));
    if (!k8s.IsNull()) out[f.name] = k8s;
  }
  Value binary = kind_.kind == "Secret" && definition == kind_.definition ? Get(block, "binary_data") : Value();
  if (!binary.IsNull()) {
    Value data = out.count("data") ? out["data"] : Value::Map({});
    if (!binary.IsWhollyKnown() || !data.IsWhollyKnown()) {
      out["data"] = Value::Unknown();
    } else {
      ValueMap merged = data.AsMap();
      for (const auto& [key, text] : binary.AsMap()) merged[key] = text;
      out["data"] = Value::Map(std::move(merged)).MarkSensitive();
    }
  }
  return Value::Object(std::move(out));
}

Value TypedShape::FieldToK8s(const CatalogField& f, const Value& v, const std::vector<CatalogField>* fields_of) const {
  if (!v.IsKnown()) return v;
  switch (f.shape) {
    case FieldShape::Object: {
      if (!v.IsSequence() || v.AsList().empty()) return Value();
      const Value& first = v.AsList().front();
      if (f.definition == kObjectMetaDefinition) {
        // The kind's own metadata: a namespaced kind's namespace defaults to "default".
        bool own = &catalog_.Fields(kind_.definition) == fields_of;
        return MetaToK8s(first, own && kind_.namespaced ? "default" : "");
      }
      return ObjectToK8s(f.definition, first);
    }
    case FieldShape::ObjectList: {
      if (!v.IsSequence()) return v;
      ValueList items;
      for (const Value& item : v.AsList()) items.push_back(ObjectToK8s(f.definition, item));
      return Value::List(std::move(items));
    }
    case FieldShape::IntOrString:
      if (v.IsString() && AllDigits(v.AsString())) return Value::Number(std::stod(v.AsString()));
      return v;
    default:
      return v;
  }
}

Value TypedShape::WithFieldDefaults(const Value& typed) const { return BlockDefaults(kind_.definition, typed); }

Value TypedShape::BlockDefaults(const std::string& definition, const Value& block) const {
  if (!block.IsKnown() || !block.IsMapping()) return block;
  Value out = block;
  for (const CatalogField& f : catalog_.Fields(definition)) {
    if (TerraformOmits(definition, f) || f.definition == kObjectMetaDefinition) continue;
    std::string name = TerraformFieldName(definition, f);
    Value v = Get(block, name);
    if (v.IsNull()) {
      if (const char* given = TerraformFieldDefault(definition, f)) out = With(out, name, Value::String(given));
      continue;
    }
    bool blocks = f.shape == FieldShape::Object || f.shape == FieldShape::ObjectList;
    if (!blocks || !v.IsKnown() || !v.IsSequence()) continue;
    ValueList items;
    for (const Value& item : v.AsList()) items.push_back(BlockDefaults(f.definition, item));
    out = With(out, name, Value::List(std::move(items)).MarkSensitive(v.IsSensitive()));
  }
  return out;
}

ValueMap TypedShape::FromObject(const Json& object, const Json& live, const Value& prior) const {
  ValueMap out;
  for (const CatalogField& f : catalog_.Fields(kind_.definition)) {
    if (TerraformOmits(kind_.definition, f)) continue;
    std::string name = TerraformFieldName(kind_.definition, f);
    Value v;
    if (f.name == "metadata") {
      v = MetaFromK8s(object.value("metadata", Json::object()), live.value("metadata", Json::object()));
    } else if (object.contains(f.name)) {
      v = FieldFromK8s(f, object[f.name], Get(prior, name));
      if (IsSecretData(kind_, kind_.definition, f) && v.IsMapping()) {
        // The keys prior had in binary_data stay base64 there, and so do values that are not
        // text; the others are decoded.
        Value prior_binary = Get(prior, "binary_data");
        ValueMap decoded, binary;
        for (const auto& [key, text] : v.AsMap()) {
          if (prior_binary.IsMapping() && prior_binary.AsMap().count(key)) {
            binary[key] = text;
            continue;
          }
          std::optional<std::string> plain = text.IsString() ? base::Base64Decode(text.AsString()) : std::nullopt;
          if (plain && IsText(*plain)) {
            decoded[key] = Value::String(*plain);
          } else {
            binary[key] = text;  // bytes, not text (an imported Secret's binary value)
          }
        }
        v = decoded.empty() && !binary.empty() ? Value() : Value::Map(std::move(decoded));
        if (!binary.empty()) out["binary_data"] = Value::Map(std::move(binary)).MarkSensitive();
      }
    }
    const AttributeSchema& a = attributes_.at(name);
    ConversionResult typed = ConvertValue(v, a.type);
    v = typed.ok() ? typed.value : v;
    out[name] = a.sensitive && !v.IsNull() ? v.MarkSensitive() : v;
  }
  if (attributes_.count("binary_data") && !out.count("binary_data")) out["binary_data"] = Value();
  return out;
}

Value TypedShape::ObjectFromK8s(const std::string& definition, const Json& object, const Value& prior) const {
  ValueMap out;
  if (!object.is_object()) return Value::Object({});
  for (const CatalogField& f : catalog_.Fields(definition)) {
    if (TerraformOmits(definition, f) || !object.contains(f.name)) continue;
    std::string name = TerraformFieldName(definition, f);
    out[name] = FieldFromK8s(f, object[f.name], Get(prior, name));
  }
  return Value::Object(std::move(out));
}

Value TypedShape::FieldFromK8s(const CatalogField& f, const Json& j, const Value& prior) const {
  if (j.is_null()) return Value();
  switch (f.shape) {
    case FieldShape::Object:
      if (f.definition == kObjectMetaDefinition) return MetaFromK8s(j, Json::object());
      return Value::List({ObjectFromK8s(f.definition, j, ItemOf(prior, 0))});
    case FieldShape::ObjectList: {
      ValueList items;
      if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i) items.push_back(ObjectFromK8s(f.definition, j[i], ItemOf(prior, i)));
      }
      return Value::List(std::move(items));
    }
    case FieldShape::IntOrString:
      if (j.is_number_integer()) return Value::String(std::to_string(j.get<int64_t>()));
      return JsonToValue(j);
    case FieldShape::Quantity:
      return SameQuantity(JsonToValue(j), prior);
    case FieldShape::QuantityMap: {
      if (!j.is_object()) return JsonToValue(j);
      ValueMap out;
      for (const auto& [key, item] : j.items()) out[key] = SameQuantity(JsonToValue(item), Get(prior, key));
      return Value::Map(std::move(out));
    }
    default:
      return JsonToValue(j);
  }
}

}  // namespace strata::kubernetes
