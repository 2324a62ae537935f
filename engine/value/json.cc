#include "engine/value/json.h"

#include <charconv>
#include <cmath>

namespace strata {

nlohmann::json NumberToJson(const Number& n) {
  // Whole numbers within 64 bits are exact JSON integers (9007199254740993 too).
  if (n.IsInteger()) {
    if (auto i = n.ToInt64()) return *i;
    if (n.Sign() > 0) {
      std::string digits = n.ToIntegerString();
      uint64_t u = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), u);
      if (ec == std::errc() && end == digits.data() + digits.size()) return u;
    }
  }
  return n.ToDouble();
}

bool NumberFitsJson(const Number& n) {
  if (n.IsNaN() || n.IsInfinite()) return false;
  if (n.IsFast() && n.IsInteger()) return true;
  return JsonToValue(NumberToJson(n)).AsExactNumber().Equals(n);
}

namespace {

nlohmann::json ToJson(const Value& v, bool exact);

nlohmann::json ExactNumberJson(const Number& n) {
  // Only text nlohmann reads back as a finite double: past its range it stays the nearest.
  double d = n.ToDouble();
  if (NumberFitsJson(n) || !std::isfinite(d) || std::fabs(d) > 1e307) return NumberToJson(n);
  std::string text = n.ToString();
  return nlohmann::json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kExactNumberSubtype);
}

template <typename Json>
bool IsExactNumber(const Json& j) {
  return j.is_binary() && j.get_binary().has_subtype() && j.get_binary().subtype() == kExactNumberSubtype;
}

// nlohmann's dump(indent): "[\n", the items one per line indented, "\n]"; "key": value.
template <typename Json>
void DumpExact(const Json& j, int indent, int depth, std::string& out) {
  bool pretty = indent >= 0;
  auto open = [&](char c) {
    out += c;
    if (pretty) out += '\n';
  };
  auto item_start = [&](bool first) {
    if (!first) out += pretty ? ",\n" : ",";
    if (pretty) out.append(static_cast<size_t>(indent * (depth + 1)), ' ');
  };
  auto close = [&](char c) {
    if (pretty) {
      out += '\n';
      out.append(static_cast<size_t>(indent * depth), ' ');
    }
    out += c;
  };
  if (IsExactNumber(j)) {
    out.append(j.get_binary().begin(), j.get_binary().end());
  } else if (j.is_array() && !j.empty()) {
    open('[');
    for (size_t i = 0; i < j.size(); ++i) {
      item_start(i == 0);
      DumpExact(j[i], indent, depth + 1, out);
    }
    close(']');
  } else if (j.is_object() && !j.empty()) {
    open('{');
    bool first = true;
    for (const auto& [k, e] : j.items()) {
      item_start(first);
      first = false;
      out += Json(k).dump();
      out += pretty ? ": " : ":";
      DumpExact(e, indent, depth + 1, out);
    }
    close('}');
  } else {
    out += j.dump();
  }
}

// nlohmann's DOM builder, keeping the text of long numbers (its lexer reads them as
// doubles, and integers past 2^64 too).
class ExactNumberSax : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using json_sax_dom_parser::json_sax_dom_parser;
  bool number_float(double value, const std::string& text) {
    if (text.size() <= 17) return json_sax_dom_parser::number_float(value, text);
    nlohmann::json::binary_t node(std::vector<std::uint8_t>(text.begin(), text.end()), kExactNumberSubtype);
    return json_sax_dom_parser::binary(node);
  }
};

}  // namespace

nlohmann::json ValueToExactJson(const Value& v) { return ToJson(v, true); }

std::string DumpExactJson(const nlohmann::json& j, int indent) {
  std::string out;
  DumpExact(j, indent, 0, out);
  return out;
}

std::string DumpExactJson(const nlohmann::ordered_json& j, int indent) {
  std::string out;
  DumpExact(j, indent, 0, out);
  return out;
}

nlohmann::json ParseExactJson(const std::string& text) {
  nlohmann::json out;
  ExactNumberSax sax(out, false);
  if (!nlohmann::json::sax_parse(text, &sax) || sax.is_errored()) return nlohmann::json(nlohmann::json::value_t::discarded);
  return out;
}

nlohmann::json ValueToJson(const Value& v) { return ToJson(v, false); }

namespace {

nlohmann::json ToJson(const Value& v, bool exact) {
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown: return nullptr;
    case ValueKind::Bool: return v.AsBool();
    case ValueKind::Number: return exact ? ExactNumberJson(v.AsExactNumber()) : NumberToJson(v.AsExactNumber());
    case ValueKind::String: return v.AsString();
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& e : v.AsList()) a.push_back(ToJson(e, exact));
      return a;
    }
    case ValueKind::Map:
    case ValueKind::Object: {
      nlohmann::json o = nlohmann::json::object();
      for (const auto& [k, e] : v.AsMap()) o[k] = ToJson(e, exact);
      return o;
    }
  }
  return nullptr;
}

}  // namespace

Value JsonToValue(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return Value::Null();
    case nlohmann::json::value_t::boolean: return Value::Bool(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return Value::Number(Number::FromInt(j.get<int64_t>()));
    case nlohmann::json::value_t::number_unsigned: {
      uint64_t u = j.get<uint64_t>();
      if (u <= static_cast<uint64_t>(INT64_MAX)) return Value::Number(Number::FromInt(static_cast<int64_t>(u)));
      return Value::Number(Number::ParseInteger(std::to_string(u), 10, false).value_or(Number()));
    }
    case nlohmann::json::value_t::number_float: {
      // The shortest text of the double read back at Terraform's precision: the 0.1 a
      // document holds is the literal 0.1, as cty's JSON decoder reads it.
      double d = j.get<double>();
      if (!std::isfinite(d)) return Value::Number(d);
      return Value::Number(Number::Parse(Number::FromDouble(d).ToString()).value_or(Number::FromDouble(d)));
    }
    case nlohmann::json::value_t::string: return Value::String(j.get<std::string>());
    case nlohmann::json::value_t::binary:
      if (IsExactNumber(j)) {
        std::string text(j.get_binary().begin(), j.get_binary().end());
        if (auto n = Number::Parse(text)) return Value::Number(*n);
      }
      return Value::Null();
    case nlohmann::json::value_t::array: {
      ValueList items;
      items.reserve(j.size());
      for (const auto& e : j) items.push_back(JsonToValue(e));
      return Value::Tuple(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      ValueMap items;
      for (const auto& [k, e] : j.items()) items.emplace(k, JsonToValue(e));
      return Value::Object(std::move(items));
    }
    default: return Value::Null();
  }
}

}  // namespace strata
