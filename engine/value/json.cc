#include "engine/value/json.h"

#include <cmath>

namespace strata {

nlohmann::json ValueToJson(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown: return nullptr;
    case ValueKind::Bool: return v.AsBool();
    case ValueKind::Number: {
      double n = v.AsNumber();
      if (n == std::floor(n) && std::fabs(n) < 9.007199254740992e15) return static_cast<int64_t>(n);
      return n;
    }
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
    case nlohmann::json::value_t::number_integer: return Value::Number(static_cast<double>(j.get<int64_t>()));
    case nlohmann::json::value_t::number_unsigned: return Value::Number(static_cast<double>(j.get<uint64_t>()));
    case nlohmann::json::value_t::number_float: return Value::Number(j.get<double>());
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
