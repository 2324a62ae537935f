#include "engine/value/json.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

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
  // Past double's range too: ParseExactJson reads such digits back (nlohmann's own lexer
  // refuses them). Only NaN and the infinities have no digits.
  if (n.IsNaN() || n.IsInfinite() || NumberFitsJson(n)) return NumberToJson(n);
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
  ExactNumberSax(nlohmann::json& out, bool read_marked) : json_sax_dom_parser(out, false), read_marked_(read_marked) {}
  bool number_float(double value, const std::string& text) {
    if (text.size() <= 17) return json_sax_dom_parser::number_float(value, text);
    return ExactNode(text);
  }
  bool string(std::string& text) {
    if (read_marked_ && text.starts_with(kHugeNumberMark)) return ExactNode(text.substr(kHugeNumberMark.size()));
    return json_sax_dom_parser::string(text);
  }

  //! The prefix MarkHugeNumbers gives the numbers it turns into strings.
  static constexpr std::string_view kHugeNumberMark{"\0strata-exact-number:", sizeof("\0strata-exact-number:") - 1};

 private:
  bool ExactNode(const std::string& text) {
    nlohmann::json::binary_t node(std::vector<std::uint8_t>(text.begin(), text.end()), kExactNumberSubtype);
    return json_sax_dom_parser::binary(node);
  }
  bool read_marked_;
};

// nlohmann's lexer refuses a number past double's range ("number overflow"): the text with
// each such number turned into a string carrying ExactNumberSax's mark, or nullopt when
// there is none.
std::optional<std::string> MarkHugeNumbers(const std::string& text) {
  std::string out;
  bool changed = false;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '"') {  // a string, escapes included, copied as it is
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      out.append(text, i, j + 1 - i);
      i = j + 1;
      continue;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i + 1;
      while (j < text.size() && std::string_view("0123456789.eE+-").find(text[j]) != std::string_view::npos) ++j;
      std::string token = text.substr(i, j - i);
      if (std::isinf(std::strtod(token.c_str(), nullptr))) {
        out += "\"\\u0000" + std::string(ExactNumberSax::kHugeNumberMark.substr(1)) + token + "\"";
        changed = true;
      } else {
        out += token;
      }
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  if (!changed) return std::nullopt;
  return out;
}

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
  if (nlohmann::json::sax_parse(text, &sax) && !sax.is_errored()) return out;
  // Rare: numbers past double's range (1e400), which only a second pass can read.
  if (std::optional<std::string> marked = MarkHugeNumbers(text)) {
    nlohmann::json again;
    ExactNumberSax marked_sax(again, true);
    if (nlohmann::json::sax_parse(*marked, &marked_sax) && !marked_sax.is_errored()) return again;
  }
  return nlohmann::json(nlohmann::json::value_t::discarded);
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
