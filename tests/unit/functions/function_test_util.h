#pragma once
// Shorthands for the function tests: building values and calling the standard table.

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "engine/expr/function.h"
#include "engine/value/format.h"
#include "engine/value/value.h"

namespace strata {

//! Lets GoogleTest print Values in failure messages.
inline void PrintTo(const Value& v, std::ostream* os) {
  FormatOptions options;
  options.reveal_sensitive = true;
  *os << FormatValue(v, options) << " (" << v.TypeName() << ")";
}

}  // namespace strata

namespace strata::testing {

inline Value S(std::string s) { return Value::String(std::move(s)); }
inline Value N(double n) { return Value::Number(n); }
inline Value B(bool b) { return Value::Bool(b); }
inline Value L(ValueList items) { return Value::List(std::move(items)); }
inline Value T(ValueList items) { return Value::Tuple(std::move(items)); }
inline Value Set(ValueList items) { return Value::Set(std::move(items)); }
inline Value M(ValueMap items) { return Value::Map(std::move(items)); }
inline Value O(ValueMap items) { return Value::Object(std::move(items)); }
inline Value Strings(const std::vector<std::string>& items) {
  ValueList out;
  for (const auto& s : items) out.push_back(S(s));
  return L(std::move(out));
}

inline Value Call(const std::string& name, const std::vector<Value>& args,
                  const FunctionContext& ctx = {}) {
  return CallFunction(FunctionTable::Standard(), name, args, ctx);
}

//! The error a call throws; fails the test if it does not throw.
inline FunctionError CallError(const std::string& name, const std::vector<Value>& args,
                               const FunctionContext& ctx = {}) {
  try {
    Value v = Call(name, args, ctx);
    ADD_FAILURE() << name << "() did not fail";
  } catch (const FunctionError& e) {
    return e;
  }
  return {};
}

}  // namespace strata::testing
