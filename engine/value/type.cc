#include "engine/value/type.h"

#include <cctype>
#include <cstdlib>
#include <limits>
#include <optional>

#include <fmt/format.h>

namespace strata {

Type Type::Primitive(Kind kind) {
  Type t;
  t.kind_ = kind;
  return t;
}

Type Type::Collection(Kind kind, Type element) {
  Type t;
  t.kind_ = kind;
  t.elements_.push_back(std::move(element));
  return t;
}

Type Type::ObjectOf(std::map<std::string, Attribute> attributes) {
  Type t;
  t.kind_ = Kind::Object;
  t.attributes_ = std::make_shared<const std::map<std::string, Attribute>>(std::move(attributes));
  return t;
}

Type Type::TupleOf(std::vector<Type> elements) {
  Type t;
  t.kind_ = Kind::Tuple;
  t.elements_ = std::move(elements);
  return t;
}

const std::map<std::string, Type::Attribute>& Type::attributes() const { return *attributes_; }

std::string Type::ToString() const {
  switch (kind_) {
    case Kind::Any: return "any";
    case Kind::String: return "string";
    case Kind::Number: return "number";
    case Kind::Bool: return "bool";
    case Kind::List: return "list(" + element().ToString() + ")";
    case Kind::Set: return "set(" + element().ToString() + ")";
    case Kind::Map: return "map(" + element().ToString() + ")";
    case Kind::Tuple: {
      std::string s = "tuple([";
      for (size_t i = 0; i < elements_.size(); ++i) s += (i ? ", " : "") + elements_[i].ToString();
      return s + "])";
    }
    case Kind::Object: {
      std::string s = "object({";
      bool first = true;
      for (const auto& [name, attr] : attributes()) {
        s += (first ? "" : ", ") + name + "=" +
             (attr.optional ? "optional(" + attr.type.ToString() + ")" : attr.type.ToString());
        first = false;
      }
      return s + "})";
    }
  }
  return "any";
}

namespace {

// A string converted to a number as cty converts one: decimal text at 512 bits (Go's
// big.ParseFloat, so "+5", ".5" and "5." too) or an infinity; no hex, no spaces.
std::optional<Number> ParseNumberString(const std::string& s) {
  if (auto n = Number::Parse(s)) return n;
  std::string lower;
  for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool negative = !lower.empty() && lower[0] == '-';
  std::string_view rest = std::string_view(lower).substr(!lower.empty() && (lower[0] == '-' || lower[0] == '+'));
  if (rest == "inf" || rest == "infinity") {
    return Number::FromDouble(negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
  }
  return std::nullopt;
}

// A small recursive-descent parser over the type syntax.
class TypeParser {
 public:
  explicit TypeParser(const std::string& text) : text_(text) {}

  TypeParseResult Parse() {
    TypeParseResult result;
    auto t = ParseTypeExpr();
    SkipSpace();
    if (t && pos_ != text_.size()) Fail("unexpected text after the type");
    if (!error_.empty()) {
      result.error = error_;
      result.error_offset = static_cast<int>(error_pos_);
      return result;
    }
    result.type = std::move(t);
    return result;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Expect(char c) {
    if (Accept(c)) return true;
    Fail(fmt::format("expected '{}'", c));
    return false;
  }
  void Fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      error_pos_ = pos_;
    }
  }
  std::string Identifier() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '-')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  std::optional<Type> ParseTypeExpr() {
    size_t start = pos_;
    std::string name = Identifier();
    if (name == "string") return Type::Primitive(Type::Kind::String);
    if (name == "number") return Type::Primitive(Type::Kind::Number);
    if (name == "bool") return Type::Primitive(Type::Kind::Bool);
    if (name == "any") return Type::Any();
    if (name == "list" || name == "set" || name == "map") {
      Type::Kind kind = name == "list" ? Type::Kind::List : name == "set" ? Type::Kind::Set : Type::Kind::Map;
      if (!Accept('(')) return Type::Collection(kind, Type::Any());  // bare "list" = list(any)
      auto element = ParseTypeExpr();
      if (!element || !Expect(')')) return std::nullopt;
      return Type::Collection(kind, *element);
    }
    if (name == "tuple") return ParseTuple();
    if (name == "object") return ParseObject();
    pos_ = start;
    Fail(name.empty() ? "expected a type" : fmt::format("unknown type \"{}\"; expected string, number, bool, any, list, set, map, tuple or object", name));
    return std::nullopt;
  }

  std::optional<Type> ParseTuple() {
    if (!Expect('(') || !Expect('[')) return std::nullopt;
    std::vector<Type> elements;
    while (!Accept(']')) {
      auto t = ParseTypeExpr();
      if (!t) return std::nullopt;
      elements.push_back(*t);
      if (!Accept(',')) {
        if (!Expect(']')) return std::nullopt;
        break;
      }
    }
    if (!Expect(')')) return std::nullopt;
    return Type::TupleOf(std::move(elements));
  }

  std::optional<Type> ParseObject() {
    if (!Expect('(') || !Expect('{')) return std::nullopt;
    std::map<std::string, Type::Attribute> attributes;
    while (!Accept('}')) {
      std::string name = Identifier();
      if (name.empty()) {
        Fail("expected an attribute name");
        return std::nullopt;
      }
      if (!Accept('=') && !Expect(':')) return std::nullopt;
      auto attr = ParseAttribute();
      if (!attr) return std::nullopt;
      attributes[name] = *attr;
      if (!Accept(',')) {
        if (!Expect('}')) return std::nullopt;
        break;
      }
    }
    if (!Expect(')')) return std::nullopt;
    return Type::ObjectOf(std::move(attributes));
  }

  std::optional<Type::Attribute> ParseAttribute() {
    SkipSpace();
    size_t save = pos_;
    if (Identifier() != "optional") {
      pos_ = save;
      auto t = ParseTypeExpr();
      if (!t) return std::nullopt;
      return Type::Attribute{*t, false, std::nullopt};
    }
    if (!Expect('(')) return std::nullopt;
    auto t = ParseTypeExpr();
    if (!t) return std::nullopt;
    Type::Attribute attr{*t, true, std::nullopt};
    if (Accept(',')) {
      auto v = ParseLiteral();
      if (!v) return std::nullopt;
      auto converted = ConvertValue(*v, *t);
      if (!converted.ok()) {
        Fail("the default does not match the attribute type: " + converted.error);
        return std::nullopt;
      }
      attr.default_value = converted.value;
    }
    if (!Expect(')')) return std::nullopt;
    return attr;
  }

  // Defaults inside optional(): literals only (string, number, bool, null, [] and {} of them).
  std::optional<Value> ParseLiteral() {
    SkipSpace();
    if (pos_ >= text_.size()) {
      Fail("expected a default value");
      return std::nullopt;
    }
    char c = text_[pos_];
    if (c == '"') {
      std::string s;
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"') {
        if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
        s += text_[pos_++];
      }
      if (!Expect('"')) return std::nullopt;
      return Value::String(s);
    }
    if (c == '[') {
      ++pos_;
      ValueList items;
      while (!Accept(']')) {
        auto v = ParseLiteral();
        if (!v) return std::nullopt;
        items.push_back(*v);
        if (!Accept(',') && !Expect(']')) return std::nullopt;
        if (pos_ > 0 && text_[pos_ - 1] == ']') break;
      }
      return Value::Tuple(std::move(items));
    }
    if (c == '{') {
      ++pos_;
      ValueMap items;
      while (!Accept('}')) {
        SkipSpace();
        std::string key = Identifier();
        if (key.empty()) {
          Fail("expected a key");
          return std::nullopt;
        }
        if (!Accept('=') && !Expect(':')) return std::nullopt;
        auto v = ParseLiteral();
        if (!v) return std::nullopt;
        items[key] = *v;
        if (!Accept(',') && !Expect('}')) return std::nullopt;
        if (text_[pos_ - 1] == '}') break;
      }
      return Value::Object(std::move(items));
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = pos_ + 1;
      while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '.' ||
                                    ((text_[end] == '+' || text_[end] == '-') && (text_[end - 1] == 'e' || text_[end - 1] == 'E')))) {
        ++end;
      }
      auto n = Number::Parse(std::string_view(text_).substr(pos_, end - pos_));
      if (!n) {
        Fail("expected a number");
        return std::nullopt;
      }
      pos_ = end;
      return Value::Number(*n);
    }
    std::string word = Identifier();
    if (word == "true") return Value::Bool(true);
    if (word == "false") return Value::Bool(false);
    if (word == "null") return Value::Null();
    Fail("expected a literal default value");
    return std::nullopt;
  }

  const std::string& text_;
  size_t pos_ = 0;
  std::string error_;
  size_t error_pos_ = 0;
};

const char* Article(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::String: return "a string";
    case Type::Kind::Number: return "a number";
    case Type::Kind::Bool: return "a bool";
    case Type::Kind::List: return "a list";
    case Type::Kind::Set: return "a set";
    case Type::Kind::Map: return "a map";
    case Type::Kind::Object: return "an object";
    case Type::Kind::Tuple: return "a tuple";
    default: return "a value";
  }
}

ConversionResult Fail(const std::string& message) { return {Value(), message}; }

ConversionResult Nest(const std::string& where, const ConversionResult& inner) {
  return {Value(), where + ": " + inner.error};
}

ConversionResult ConvertPrimitive(const Value& v, Type::Kind kind) {
  std::string wanted = std::string(Article(kind)) + " is required";
  switch (kind) {
    case Type::Kind::String:
      if (v.IsString()) return {v, ""};
      if (v.IsNumber()) return {Value::String(FormatNumber(v.AsExactNumber())), ""};
      if (v.IsBool()) return {Value::String(v.AsBool() ? "true" : "false"), ""};
      return Fail(wanted + fmt::format(", got {}", v.TypeName()));
    case Type::Kind::Number:
      if (v.IsNumber()) return {v, ""};
      if (v.IsString()) {
        const std::string& s = v.AsString();
        if (auto n = ParseNumberString(s)) return {Value::Number(*n), ""};
        return Fail(fmt::format("a number is required, got the string \"{}\"", s));
      }
      return Fail(wanted + fmt::format(", got {}", v.TypeName()));
    case Type::Kind::Bool:
      if (v.IsBool()) return {v, ""};
      if (v.IsString() && (v.AsString() == "true" || v.AsString() == "false")) {
        return {Value::Bool(v.AsString() == "true"), ""};
      }
      return Fail(wanted + fmt::format(", got {}", v.TypeName()));
    default: return {v, ""};
  }
}

ConversionResult ConvertInner(const Value& v, const Type& type);

ConversionResult ConvertSequence(const Value& v, const Type& type) {
  if (!v.IsSequence()) return Fail(fmt::format("{} is required, got {}", Article(type.kind()), v.TypeName()));
  const auto& items = v.AsList();
  if (type.kind() == Type::Kind::Tuple && items.size() != type.elements().size()) {
    return Fail(fmt::format("a tuple of {} elements is required, got {}", type.elements().size(), items.size()));
  }
  ValueList out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const Type& et = type.kind() == Type::Kind::Tuple ? type.elements()[i] : type.element();
    auto r = ConvertInner(items[i], et);
    if (!r.ok()) return Nest(fmt::format("element {}", i), r);
    out.push_back(r.value);
  }
  switch (type.kind()) {
    case Type::Kind::List: return {Value::List(std::move(out)), ""};
    case Type::Kind::Set: return {Value::Set(std::move(out)), ""};
    default: return {Value::Tuple(std::move(out)), ""};
  }
}

ConversionResult ConvertMap(const Value& v, const Type& type) {
  if (!v.IsMapping()) return Fail(fmt::format("a map is required, got {}", v.TypeName()));
  ValueMap out;
  for (const auto& [k, e] : v.AsMap()) {
    auto r = ConvertInner(e, type.element());
    if (!r.ok()) return Nest(fmt::format("element \"{}\"", k), r);
    out.emplace(k, r.value);
  }
  return {Value::Map(std::move(out)), ""};
}

ConversionResult ConvertObject(const Value& v, const Type& type) {
  if (!v.IsMapping()) return Fail(fmt::format("an object is required, got {}", v.TypeName()));
  const auto& given = v.AsMap();
  ValueMap out;
  for (const auto& [name, attr] : type.attributes()) {
    auto it = given.find(name);
    if (it == given.end() || it->second.IsNull()) {
      if (!attr.optional && it == given.end()) return Fail(fmt::format("attribute \"{}\" is required", name));
      out.emplace(name, attr.default_value.value_or(Value::Null()));
      continue;
    }
    auto r = ConvertInner(it->second, attr.type);
    if (!r.ok()) return Nest(fmt::format("attribute \"{}\"", name), r);
    out.emplace(name, r.value);
  }
  return {Value::Object(std::move(out)), ""};
}

ConversionResult ConvertInner(const Value& v, const Type& type) {
  if (v.IsNull() || v.IsUnknown() || type.kind() == Type::Kind::Any) return {v, ""};
  ConversionResult r;
  switch (type.kind()) {
    case Type::Kind::String:
    case Type::Kind::Number:
    case Type::Kind::Bool: r = ConvertPrimitive(v, type.kind()); break;
    case Type::Kind::List:
    case Type::Kind::Set:
    case Type::Kind::Tuple: r = ConvertSequence(v, type); break;
    case Type::Kind::Map: r = ConvertMap(v, type); break;
    case Type::Kind::Object: r = ConvertObject(v, type); break;
    case Type::Kind::Any: r = {v, ""}; break;
  }
  if (r.ok() && v.IsSensitive()) r.value = r.value.MarkSensitive();
  return r;
}

}  // namespace

TypeParseResult ParseType(const std::string& text) { return TypeParser(text).Parse(); }

ConversionResult ConvertValue(const Value& v, const Type& type) { return ConvertInner(v, type); }

}  // namespace strata
