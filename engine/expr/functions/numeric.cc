// Numeric functions: min, max, abs, ceil, floor, log, pow, signum, parseint, at Terraform's
// precision (engine/value/number.h) except log and pow, which Terraform runs on doubles.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::Fail;

// min and max: variadic numbers; the extreme argument itself, as cty returns it.
Value Extreme(const Args& args, bool want_max) {
  Number best = functions::ExactNumberArg(args, 0);
  for (size_t i = 1; i < args.size(); ++i) {
    Number n = functions::ExactNumberArg(args, static_cast<int>(i));
    int c = Number::Compare(n, best);
    if (want_max ? c > 0 : c < 0) best = n;
  }
  return Value::Number(best);
}

void DefineExactUnary(FunctionTable& table, const std::string& name, Number (*fn)(const Number&)) {
  Define(table, name, 1, 1, [fn](const Args& args, const FunctionContext&) {
    return Value::Number(fn(functions::ExactNumberArg(args, 0)));
  });
}

// log and pow work on Go float64s in Terraform too (their results have a double's 53 bits).
void DefineBinary(FunctionTable& table, const std::string& name, double (*fn)(double, double)) {
  Define(table, name, 2, 2, [fn](const Args& args, const FunctionContext&) {
    return Value::Number(Number::FromDouble(fn(functions::NumberArg(args, 0), functions::NumberArg(args, 1))));
  });
}

Value ParseInt(const Args& args, const FunctionContext&) {
  std::string s = functions::StringArg(args, 0);
  Number base_number = functions::ExactNumberArg(args, 1);
  std::optional<int64_t> base = base_number.ToInt64();
  if (!base || *base < 2 || *base > 62) {
    Fail(1, "base must be a whole number between 2 and 62 inclusive");
  }
  size_t pos = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    pos = 1;
  }
  // Exact at any size, as Go's big.Int reads it.
  auto n = Number::ParseInteger(std::string_view(s).substr(pos), static_cast<int>(*base), negative);
  if (!n) Fail(0, fmt::format("cannot parse \"{}\" as a base {} integer", s, *base));
  return Value::Number(*n);
}

Number Signum(const Number& n) { return Number::FromInt(n.Sign()); }

double Log(double n, double base) { return std::log(n) / std::log(base); }

}  // namespace

void RegisterNumericFunctions(FunctionTable& table) {
  Define(table, "min", 1, -1,
         [](const Args& a, const FunctionContext&) { return Extreme(a, false); });
  Define(table, "max", 1, -1,
         [](const Args& a, const FunctionContext&) { return Extreme(a, true); });
  DefineExactUnary(table, "abs", [](const Number& n) { return n.Abs(); });
  DefineExactUnary(table, "ceil", [](const Number& n) { return n.Ceil(); });
  DefineExactUnary(table, "floor", [](const Number& n) { return n.Floor(); });
  DefineExactUnary(table, "signum", Signum);
  DefineBinary(table, "log", Log);
  DefineBinary(table, "pow", [](double a, double b) { return std::pow(a, b); });
  Define(table, "parseint", 2, 2, ParseInt);
}

}  // namespace strata
