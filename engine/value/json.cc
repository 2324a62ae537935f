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

nlohmann::json ValueToJson(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown: return nullptr;
    case ValueKind::Bool: return v.AsBool();
    case ValueKind::Number: return NumberToJson(v.AsExactNumber());
    case ValueKind::String: return v.AsString();
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& e : v.AsList()) a.push_back(ValueToJson(e));
      return a;
    }
    case ValueKind::Map:
    case ValueKind::Object: {
      nlohmann::json o = nlohmann::json::object();
      for (const auto& [k, e] : v.AsMap()) o[k] = ValueToJson(e);
      return o;
    }
  }
  return nullptr;
}

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
