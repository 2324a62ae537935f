// Type conversion functions (tostring, tolist, ...), the sensitive-mark functions and
// ephemeralasnull.
#include "engine/value/type.h"

#include <fmt/format.h>

#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::Fail;

Value ToString(const Args& args, const FunctionContext&) {
  const Value& v = args[0];
  if (v.IsNull()) return v;
  if (v.IsCollection()) Fail(0, fmt::format("cannot convert {} to string", v.TypeName()));
  return Value::String(functions::StringArg(args, 0));
}

Value ToNumber(const Args& args, const FunctionContext&) {
  const Value& v = args[0];
  if (v.IsNull() || v.IsNumber()) return v;
  if (!v.IsString()) Fail(0, fmt::format("cannot convert {} to number", v.TypeName()));
  ConversionResult r = ConvertValue(v, Type::Primitive(Type::Kind::Number));
  if (!r.ok()) {
    Fail(0, fmt::format("cannot convert \"{}\" to number; given string must be a decimal "
                        "representation of a number",
                        v.AsString()));
  }
  return r.value;
}

Value ToBool(const Args& args, const FunctionContext&) {
  const Value& v = args[0];
  if (v.IsNull() || v.IsBool()) return v;
  if (!v.IsString()) Fail(0, fmt::format("cannot convert {} to bool", v.TypeName()));
  if (v.AsString() != "true" && v.AsString() != "false") {
    Fail(0, fmt::format("cannot convert \"{}\" to bool; only the strings \"true\" or \"false\" are "
                        "allowed",
                        v.AsString()));
  }
  return Value::Bool(v.AsString() == "true");
}

// tolist/toset: any sequence, its elements unified to one type.
Value ToSequence(const Args& args, ValueKind kind) {
  const Value& v = args[0];
  if (v.IsNull()) return v;
  const char* name = kind == ValueKind::Set ? "set" : "list";
  if (!v.IsSequence()) Fail(0, fmt::format("cannot convert {} to {}", v.TypeName(), name));
  ValueList items = functions::UnifyElements(v.AsList(), 0);
  return kind == ValueKind::Set ? Value::Set(std::move(items)) : Value::List(std::move(items));
}

Value ToMap(const Args& args, const FunctionContext&) {
  const Value& v = args[0];
  if (v.IsNull()) return v;
  if (!v.IsMapping()) Fail(0, fmt::format("cannot convert {} to map", v.TypeName()));
  ValueList values;
  for (const auto& [k, e] : v.AsMap()) values.push_back(e);
  ValueList unified = functions::UnifyElements(values, 0);
  ValueMap out;
  size_t i = 0;
  for (const auto& [k, e] : v.AsMap()) out.emplace(k, unified[i++]);
  return Value::Map(std::move(out));
}

// sensitive, nonsensitive and issensitive see unknowns and marks themselves.
void DefineMarkFunction(FunctionTable& table, const std::string& name, FunctionImpl impl) {
  Define(table, name, 1, 1, std::move(impl), /*accepts_unknown=*/true, /*handles_marks=*/true);
}

}  // namespace

void RegisterTypeFunctions(FunctionTable& table) {
  Define(table, "tostring", 1, 1, ToString);
  Define(table, "tonumber", 1, 1, ToNumber);
  Define(table, "tobool", 1, 1, ToBool);
  Define(table, "tolist", 1, 1,
         [](const Args& a, const FunctionContext&) { return ToSequence(a, ValueKind::List); });
  Define(table, "toset", 1, 1,
         [](const Args& a, const FunctionContext&) { return ToSequence(a, ValueKind::Set); });
  Define(table, "tomap", 1, 1, ToMap);
  DefineMarkFunction(table, "sensitive",
                     [](const Args& a, const FunctionContext&) { return a[0].MarkSensitive(); });
  // Like Terraform, nonsensitive removes the mark on the value itself; marks nested deeper stay.
  DefineMarkFunction(table, "nonsensitive", [](const Args& a, const FunctionContext&) {
    return a[0].MarkSensitive(false);
  });
  DefineMarkFunction(table, "issensitive", [](const Args& a, const FunctionContext&) {
    if (a[0].IsSensitive()) return Value::Bool(true);
    return a[0].IsUnknown() ? Value::Unknown() : Value::Bool(false);
  });
  // Terraform's ephemeralasnull replaces the ephemeral parts of a value with null. Strata has
  // no ephemeral values (no ephemeral resources or variables), so every value comes back as
  // it is, unknowns and sensitive marks included.
  DefineMarkFunction(table, "ephemeralasnull", [](const Args& a, const FunctionContext&) { return a[0]; });
}

}  // namespace strata
