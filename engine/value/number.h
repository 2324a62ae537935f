#pragma once
// Number: a number with Terraform's precision. cty keeps every number as a Go big.Float:
// literals, tonumber, jsondecode and yamldecode round decimal text to 512 bits of
// mantissa (so 0.1 + 0.2 is 0.3, 9007199254740993 + 0 stays exact and 1e+500 + 1 is
// finite), values a function made from a Go float64 (pow, log, a provider's floats) keep
// 53 bits, an operation works at the larger precision of its operands, and a number
// prints as the shortest decimal that reads back to it at its precision, never with an
// exponent (Go's Text('f', -1)).
//
// The fast path: a number whose value is exactly a double is held as that double (no
// allocation); an operation on two such numbers runs in double arithmetic and keeps the
// result when the double result is the one the big.Float operation gives (exact, or
// correctly rounded at 53 bits). Anything else takes the arbitrary-precision path (MPFR)
// and comes back to the fast path when its result is again exactly a double.
//
// Numbers are immutable and cheap to copy. NaN never comes out of parsing; an operation
// that has no number for a result (0/0, Inf - Inf) yields IsNaN() and the caller reports it.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

class Number {
 public:
  //! The precision literals and decoded text are rounded to (cty's).
  static constexpr long kWideBits = 512;
  //! The precision of a value made from a double (cty's NumberFloatVal).
  static constexpr long kDoubleBits = 53;

  Number() = default;  // 0, exact
  //! A double as Terraform holds a Go float64: 53 bits, so it prints as the shortest
  //! decimal that reads back to that double (pow(2, 0.5) is 1.4142135623730951).
  static Number FromDouble(double d);
  //! An exact integer.
  static Number FromInt(int64_t n);
  //! Decimal text `[-+]digits[.digits][(e|E)[-+]digits]` (".5" and "5." too, as Go reads
  //! them) rounded to 512 bits (nearest, ties to even); nullopt for anything else (no hex,
  //! no "inf", no spaces).
  static std::optional<Number> Parse(std::string_view text);
  //! An integer written in `base` (2..62) with Go's big.Int digits (letters are
  //! case-insensitive up to base 36; above it a-z are 10-35 and A-Z 36-61), exact at any
  //! size; nullopt when a character is not a digit of the base or there is none.
  static std::optional<Number> ParseInteger(std::string_view digits, int base, bool negative);

  //! True when held as a double (the fast path); for tests and benchmarks.
  bool IsFast() const { return !big_; }
  bool IsNaN() const;
  bool IsInfinite() const;
  //! A whole number (not infinite, not NaN).
  bool IsInteger() const;
  //! -1, 0 or 1 (0 for NaN).
  int Sign() const;
  //! The nearest double (±inf beyond its range).
  double ToDouble() const;
  //! The value when it is a whole number within int64's range.
  std::optional<int64_t> ToInt64() const;
  //! Terraform's text: "9007199254740993", "0.1", "1e+500" as its 501 digits, "-0",
  //! "+Inf", "-Inf" ("NaN" for the value no operation should let out).
  std::string ToString() const;
  //! The exact value rounded toward zero, in digits of `base` (2..36, lower case; format's
  //! %d, %x, ...).
  std::string ToIntegerString(int base = 10) const;
  //! The exact value with `digits` digits after the point, rounded to nearest (format's %f).
  std::string ToFixed(int digits) const;

  Number operator-() const;
  friend Number operator+(const Number& a, const Number& b);
  friend Number operator-(const Number& a, const Number& b);
  friend Number operator*(const Number& a, const Number& b);
  //! x / 0 is ±Inf as in Terraform, 0 / 0 is NaN.
  friend Number operator/(const Number& a, const Number& b);
  //! Terraform's %: a - b * trunc(a / b), the sign of a; a % 0 is NaN.
  Number Mod(const Number& b) const;
  Number Abs() const;
  Number Floor() const;
  Number Ceil() const;

  //! Numeric order (-0 equals 0); NaN sorts after everything.
  static int Compare(const Number& a, const Number& b);
  //! cty's equality: two numbers are equal when they print the same (so the literal 0.1
  //! equals a double 0.1 a provider returned), -0 equal to 0.
  bool Equals(const Number& other) const;

  //! Opaque: number.cc's arbitrary-precision value.
  struct Big;

 private:
  Number(double d, bool wide) : d_(d), wide_(wide) {}
  enum class SlowOp : unsigned char { Add, Mul, Div };
  static Number FromBig(std::shared_ptr<Big> big);
  static Number Slow(const Number& a, const Number& b, SlowOp op);
  long Precision() const;

  double d_ = 0;
  bool wide_ = true;  // the fast path's precision: 512 bits, else 53
  std::shared_ptr<const Big> big_;
};

}  // namespace strata
