// Numeric functions: min, max, abs, ceil, floor, log, pow, signum, parseint.
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

// min and max: variadic numbers.
Value Extreme(const Args& args, bool want_max) {
  double best = functions::NumberArg(args, 0);
  for (size_t i = 1; i < args.size(); ++i) {
    double n = functions::NumberArg(args, static_cast<int>(i));
    best = want_max ? std::max(best, n) : std::min(best, n);
  }
  return Value::Number(best);
}

void DefineUnary(FunctionTable& table, const std::string& name, double (*fn)(double)) {
  Define(table, name, 1, 1, [fn](const Args& args, const FunctionContext&) {
    return Value::Number(fn(functions::NumberArg(args, 0)));
  });
}

void DefineBinary(FunctionTable& table, const std::string& name, double (*fn)(double, double)) {
  Define(table, name, 2, 2, [fn](const Args& args, const FunctionContext&) {
    return Value::Number(fn(functions::NumberArg(args, 0), functions::NumberArg(args, 1)));
  });
}

// The value of a digit in bases up to 62, as Go's big.Int reads them: letters are
// case-insensitive up to base 36; above it a-z are 10-35 and A-Z are 36-61.
int DigitValue(char c, int base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + (base <= 36 ? 10 : 36);
  return 99;
}

Value ParseInt(const Args& args, const FunctionContext&) {
  std::string s = functions::StringArg(args, 0);
  double base_number = functions::NumberArg(args, 1);
  if (base_number != std::floor(base_number) || base_number < 2 || base_number > 62) {
    Fail(1, "base must be a whole number between 2 and 62 inclusive");
  }
  int base = static_cast<int>(base_number);
  auto fail = [&]() { Fail(0, fmt::format("cannot parse \"{}\" as a base {} integer", s, base)); };
  size_t pos = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    pos = 1;
  }
  if (pos == s.size()) fail();
  double value = 0;
  for (; pos < s.size(); ++pos) {
    int digit = DigitValue(s[pos], base);
    if (digit >= base) fail();
    value = value * base + digit;
  }
  return Value::Number(negative ? -value : value);
}

double Signum(double n) { return n > 0 ? 1 : n < 0 ? -1 : 0; }

double Log(double n, double base) { return std::log(n) / std::log(base); }

}  // namespace

void RegisterNumericFunctions(FunctionTable& table) {
  Define(table, "min", 1, -1,
         [](const Args& a, const FunctionContext&) { return Extreme(a, false); });
  Define(table, "max", 1, -1,
         [](const Args& a, const FunctionContext&) { return Extreme(a, true); });
  DefineUnary(table, "abs", [](double n) { return std::fabs(n); });
  DefineUnary(table, "ceil", [](double n) { return std::ceil(n); });
  DefineUnary(table, "floor", [](double n) { return std::floor(n); });
  DefineUnary(table, "signum", Signum);
  DefineBinary(table, "log", Log);
  DefineBinary(table, "pow", [](double a, double b) { return std::pow(a, b); });
  Define(table, "parseint", 2, 2, ParseInt);
}

}  // namespace strata
