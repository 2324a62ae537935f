#include "engine/expr/functions/yaml_value.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "engine/value/yaml_scalar.h"

namespace strata::functions {
namespace {

// True when s[from..] is one or more characters, all satisfying `pred`.
template <typename Pred>
bool AllFrom(const std::string& s, size_t from, Pred pred) {
  return s.size() > from && std::all_of(s.begin() + static_cast<std::ptrdiff_t>(from), s.end(), pred);
}

// The digits after a 0o / 0x prefix as a number (a double: no overflow on long input).
// The digits after a 0o / 0x prefix, exact at any size.
Number ParseRadix(const std::string& s, int radix) {
  return Number::ParseInteger(std::string_view(s).substr(2), radix, false).value_or(Number());
}

// Resolves a plain scalar with the YAML 1.2 core schema.
Value ResolveCore12(const std::string& s, const YAML::Mark& mark) {
  if (s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty()) return Value::Null();
  if (s == "true" || s == "True" || s == "TRUE") return Value::Bool(true);
  if (s == "false" || s == "False" || s == "FALSE") return Value::Bool(false);
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  if (s.starts_with("0o") && AllFrom(s, 2, octal)) return Value::Number(ParseRadix(s, 8));
  if (s.starts_with("0x") && AllFrom(s, 2, hex)) return Value::Number(ParseRadix(s, 16));
  if (IsYamlDecimal(s)) return Value::Number(Number::Parse(s).value_or(Number()));
  std::string_view unsigned_part(s);
  if (s[0] == '+' || s[0] == '-') unsigned_part.remove_prefix(1);
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF") {
    throw YamlValueError{"infinite numbers cannot be represented", mark};
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") throw YamlValueError{"NaN cannot be represented", mark};
  return Value::String(s);
}

// Go's strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64) (go-yaml v2 tries both): an
// optional sign, then 0x / 0o / 0b, or a leading 0 for octal; nothing when it is not an
// integer in range.
std::optional<double> ParseGoInteger(std::string_view s) {
  bool negative = false;
  bool has_sign = !s.empty() && (s[0] == '+' || s[0] == '-');
  if (has_sign) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
    base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 8;
    s.remove_prefix(prefix == 'x' || prefix == 'o' || prefix == 'b' ? 2 : 1);
  }
  if (s.empty()) return std::nullopt;
  uint64_t n = 0;
  for (char ch : s) {
    int c = std::tolower(static_cast<unsigned char>(ch));
    int digit = std::isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 99;
    if (digit >= base) return std::nullopt;
    if (n > (UINT64_MAX - static_cast<uint64_t>(digit)) / static_cast<uint64_t>(base)) return std::nullopt;
    n = n * static_cast<uint64_t>(base) + static_cast<uint64_t>(digit);
  }
  // ParseInt takes the sign and int64's range; ParseUint no sign and uint64's.
  uint64_t limit = !has_sign ? UINT64_MAX : negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (n > limit) return std::nullopt;
  double value = static_cast<double>(n);
  return negative ? -value : value;
}

// Resolves a plain scalar as go-yaml v2 does (resolve.go), which is what kubectl reads.
Value ResolveYaml11(const std::string& s, const YAML::Mark& mark) {
  static const char* const kTrue[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static const char* const kFalse[] = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  auto is_one_of = [&s](const auto& words) { return std::find(std::begin(words), std::end(words), s) != std::end(words); };
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Value::Null();
  if (is_one_of(kTrue)) return Value::Bool(true);
  if (is_one_of(kFalse)) return Value::Bool(false);
  std::string_view unsigned_part(s);
  if (s[0] == '+' || s[0] == '-') unsigned_part.remove_prefix(1);
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF") {
    throw YamlValueError{"infinite numbers cannot be represented", mark};
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") throw YamlValueError{"NaN cannot be represented", mark};
  char first = s[0];
  if (first == '.') {
    if (IsYamlDecimal(s)) return Value::Number(Number::Parse(s).value_or(Number()));
    return Value::String(s);
  }
  if (!std::isdigit(static_cast<unsigned char>(first)) && first != '+' && first != '-') return Value::String(s);
  // Digits, a sign: go-yaml drops every underscore, then tries an integer, then a float.
  // Dates (2024-01-01) stay strings: go-yaml keeps timestamps as text for interface{}.
  std::string plain = s;
  plain.erase(std::remove(plain.begin(), plain.end(), '_'), plain.end());
  if (auto integer = ParseGoInteger(plain)) return Value::Number(*integer);
  // go-yaml v2 reads a float64 (no 512 bits here, unlike yamldecode).
  if (IsYamlDecimal(plain)) {
    double d = std::strtod(plain.c_str(), nullptr);
    if (d != HUGE_VAL && d != -HUGE_VAL) return Value::Number(d);  // Go refuses what overflows
  }
  return Value::String(s);
}

bool IsExplicitString(const YAML::Node& node) {
  const std::string& tag = node.Tag();
  return tag == "!" || tag == "tag:yaml.org,2002:str" || tag == "!!str";
}

Value ScalarValue(const YAML::Node& node, YamlScalarRules rules) {
  if (IsExplicitString(node)) return Value::String(node.Scalar());
  return rules == YamlScalarRules::Core12 ? ResolveCore12(node.Scalar(), node.Mark())
                                          : ResolveYaml11(node.Scalar(), node.Mark());
}

// A mapping key as text: as written under the core schema (Terraform's reading); under
// Kubernetes' reading, resolved and then written as sigs.k8s.io/yaml writes JSON keys.
std::string KeyText(const YAML::Node& key, YamlScalarRules rules) {
  if (key.IsNull() && rules == YamlScalarRules::Kubernetes) {
    throw YamlValueError{"a mapping key reads as null here (~, null or nothing); write it in quotes", key.Mark()};
  }
  if (!key.IsScalar()) throw YamlValueError{"only scalar mapping keys are supported", key.Mark()};
  if (rules == YamlScalarRules::Core12) return key.Scalar();
  Value v = ScalarValue(key, rules);
  if (v.IsNull()) {
    throw YamlValueError{"a mapping key reads as null here (\"" + key.Scalar() + "\"); write it in quotes", key.Mark()};
  }
  if (v.IsBool()) return v.AsBool() ? "true" : "false";
  if (v.IsNumber()) return FormatNumber(v.AsExactNumber());
  return v.AsString();
}

// The type name Terraform's yamldecode gives a value it cannot merge (cty's friendly names).
const char* MergeTypeName(const Value& v) {
  if (v.IsNull()) return "dynamic";
  if (v.IsBool()) return "bool";
  if (v.IsNumber()) return "number";
  if (v.IsString()) return "string";
  return "tuple";
}

// A YAML merge key, `<<: *base`. Terraform (go-cty-yaml) takes `<<` in any style; go-yaml v2,
// which kubectl reads through, only the plain one or one tagged !!merge.
bool IsMergeKey(const YAML::Node& key, YamlScalarRules rules) {
  if (!key.IsScalar() || key.Scalar() != "<<") return false;
  return rules == YamlScalarRules::Core12 || key.Tag() == "?" || key.Tag() == "tag:yaml.org,2002:merge";
}

// The entries of the mapping a merge key names, written over `items` as the readers do it
// where the key stands: later keys of the mapping win over the merged ones, and the merged
// ones over earlier keys. Terraform merges one mapping; go-yaml also a sequence of mappings,
// the first of which wins.
void MergeInto(ValueMap& items, const YAML::Node& merged, YamlScalarRules rules) {
  if (rules == YamlScalarRules::Kubernetes && merged.IsSequence()) {
    for (std::size_t i = merged.size(); i-- > 0;) {
      if (!merged[i].IsMap()) throw YamlValueError{"a merge key (<<) takes a mapping or a list of mappings", merged[i].Mark()};
      MergeInto(items, merged[i], rules);
    }
    return;
  }
  Value v = YamlNodeToValue(merged, rules);
  if (!v.IsMapping()) {
    if (rules == YamlScalarRules::Core12) {
      throw YamlValueError{std::string("cannot merge ") + MergeTypeName(v) + " into mapping", merged.Mark()};
    }
    throw YamlValueError{"a merge key (<<) takes a mapping or a list of mappings", merged.Mark()};
  }
  for (const auto& [k, e] : v.AsMap()) items[k] = e;
}

}  // namespace

Value YamlNodeToValue(const YAML::Node& node, YamlScalarRules rules) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return Value::Null();
    case YAML::NodeType::Scalar:
      return ScalarValue(node, rules);
    case YAML::NodeType::Sequence: {
      ValueList items;
      items.reserve(node.size());
      for (const auto& e : node) items.push_back(YamlNodeToValue(e, rules));
      return Value::Tuple(std::move(items));
    }
    case YAML::NodeType::Map: {
      ValueMap items;
      for (const auto& kv : node) {
        if (IsMergeKey(kv.first, rules)) {
          MergeInto(items, kv.second, rules);
        } else {
          items[KeyText(kv.first, rules)] = YamlNodeToValue(kv.second, rules);
        }
      }
      return Value::Object(std::move(items));
    }
  }
  return Value::Null();
}

}  // namespace strata::functions
