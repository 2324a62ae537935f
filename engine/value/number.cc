#include "engine/value/number.h"

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>

namespace strata {

// An MPFR number of its own precision, never changed once a Number holds it.
struct Number::Big {
  mpfr_t f;
  explicit Big(long bits) { mpfr_init2(f, bits); }
  ~Big() { mpfr_clear(f); }
  Big(const Big&) = delete;
  Big& operator=(const Big&) = delete;
};

namespace number_detail {

// Numbers at or beyond 2^kMaxBinaryExponent (about 10^315652) are infinite, and below
// 2^-kMaxBinaryExponent zero: a bound on their text and work (Go's is 2^(2^31)).
constexpr long kMaxBinaryExponent = 1L << 20;

// 2^53: below it every whole double is an integer a double counts exactly.
constexpr double kExactIntegerLimit = 9007199254740992.0;
// Products and quotients above this magnitude have an exactly representable error term,
// so fma tells whether the double result is exact.
constexpr double kNoUnderflow = 0x1p-969;

struct Mpz {
  mpz_t z;
  Mpz() { mpz_init(z); }
  ~Mpz() { mpz_clear(z); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

std::string MpzDigits(const mpz_t z, int base = 10) {
  std::string s(mpz_sizeinbase(z, base) + 2, '\0');
  mpz_get_str(s.data(), base, z);
  s.resize(std::strlen(s.c_str()));
  return s;
}

// Go's math/big decimal: the value is 0.digits * 10^exp, digits without leading or
// trailing zeros (empty for zero).
struct NumberDecimal {
  std::string digits;
  long exp = 0;

  // The exact decimal of m * 2^shift (m >= 0).
  NumberDecimal(const mpz_t m, long shift) {
    Mpz n;
    if (shift >= 0) {
      mpz_mul_2exp(n.z, m, static_cast<mp_bitcnt_t>(shift));
      digits = MpzDigits(n.z);
      exp = static_cast<long>(digits.size());
    } else {
      mpz_ui_pow_ui(n.z, 5, static_cast<unsigned long>(-shift));
      mpz_mul(n.z, n.z, m);
      digits = MpzDigits(n.z);
      exp = static_cast<long>(digits.size()) + shift;
    }
    if (digits == "0") digits.clear();
    Trim();
  }

  void Trim() {
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    if (digits.empty()) exp = 0;
  }
  char At(size_t i) const { return i < digits.size() ? digits[i] : '0'; }
  void RoundDown(size_t n) {
    if (n < digits.size()) digits.resize(n);
    Trim();
  }
  void RoundUp(size_t n) {
    if (n >= digits.size()) return;
    while (n > 0 && digits[n - 1] >= '9') --n;
    if (n == 0) {
      digits = "1";
      ++exp;
      return;
    }
    digits.resize(n);
    ++digits[n - 1];
    Trim();
  }
  // Round half to even on the exact digits, as Go's decimal.round.
  void Round(size_t n) {
    if (n >= digits.size()) return;
    bool up = digits[n] == '5' && n + 1 == digits.size() ? n > 0 && (digits[n - 1] - '0') % 2 != 0
                                                         : digits[n] >= '5';
    up ? RoundUp(n) : RoundDown(n);
  }
};

// Go's roundShortest: the shortest decimal in the interval of numbers that round to
// m * 2^e at `bits` of precision (m has exactly `bits` bits).
NumberDecimal Shortest(const mpz_t m, long e) {
  NumberDecimal d(m, e);
  if (d.digits.empty()) return d;
  Mpz half, bound;
  mpz_mul_2exp(half.z, m, 1);  // lsb is half an ulp
  mpz_sub_ui(bound.z, half.z, 1);
  NumberDecimal lower(bound.z, e - 1);
  mpz_add_ui(bound.z, half.z, 1);
  NumberDecimal upper(bound.z, e - 1);
  bool inclusive = mpz_even_p(m);
  // Go compares digit by digit by index, whatever the bounds' exponents.
  for (size_t i = 0; i < d.digits.size(); ++i) {
    char l = lower.At(i);
    char u = upper.At(i);
    char c = d.digits[i];
    bool okdown = l != c || (inclusive && i + 1 == lower.digits.size());
    bool okup = c != u && (inclusive || c + 1 < u || i + 1 < upper.digits.size());
    if (okdown && okup) {
      d.Round(i + 1);
      return d;
    }
    if (okdown) {
      d.RoundDown(i + 1);
      return d;
    }
    if (okup) {
      d.RoundUp(i + 1);
      return d;
    }
  }
  return d;
}

// Go's %f with the shortest digits: no exponent, as many fraction digits as needed.
std::string FixedText(bool negative, const NumberDecimal& d) {
  std::string out = negative ? "-" : "";
  if (d.exp > 0) {
    size_t whole = static_cast<size_t>(d.exp);
    out.append(d.digits, 0, std::min(whole, d.digits.size()));
    if (whole > d.digits.size()) out.append(whole - d.digits.size(), '0');
  } else {
    out += '0';
  }
  long fraction = static_cast<long>(d.digits.size()) - d.exp;
  if (fraction > 0) {
    out += '.';
    for (long i = 0; i < fraction; ++i) out += d.At(static_cast<size_t>(d.exp + i));
  }
  return out;
}

// The shortest text of a finite nonzero value held in `f` (its own precision).
std::string ShortestText(const mpfr_t f) {
  Mpz m;
  long e = mpfr_get_z_2exp(m.z, f);
  bool negative = mpz_sgn(m.z) < 0;
  mpz_abs(m.z, m.z);
  return FixedText(negative, Shortest(m.z, e));
}

// A double's shortest round-trip digits (53 bits), as the decimal they spell.
NumberDecimal DoubleDigits(double d) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, std::fabs(d), std::chars_format::scientific);
  std::string_view text(buf, static_cast<size_t>(end - buf));
  size_t e = text.find('e');
  Mpz zero;
  NumberDecimal out(zero.z, 0);
  for (char c : text.substr(0, e)) {
    if (c != '.') out.digits += c;
  }
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), exponent);
  out.exp = exponent + 1;
  out.Trim();
  return out;
}

bool IsPowerOfTwo(double d) {
  int exp = 0;
  return std::frexp(std::fabs(d), &exp) == 0.5;
}

std::string IntegerText(double d) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(d));
  std::string out(buf, end);
  if (d == 0 && std::signbit(d)) return "-0";
  return out;
}

// A decimal literal split into its digits (without leading zeros) and power of ten.
struct DecimalParts {
  bool negative = false;
  std::string digits;
  long exp10 = 0;
};

std::optional<DecimalParts> SplitDecimal(std::string_view s) {
  DecimalParts p;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) p.negative = s[i++] == '-';
  size_t whole = 0, fraction = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++whole) p.digits += s[i];
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++fraction) p.digits += s[i];
  }
  if (whole == 0 && fraction == 0) return std::nullopt;
  long exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    size_t start = i;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (exponent < 100000000) exponent = exponent * 10 + (s[i] - '0');
    }
    if (i == start) return std::nullopt;
    if (negative) exponent = -exponent;
  }
  if (i != s.size()) return std::nullopt;
  p.exp10 = exponent - static_cast<long>(fraction);
  size_t lead = p.digits.find_first_not_of('0');
  p.digits = lead == std::string::npos ? "" : p.digits.substr(lead);
  return p;
}

// Powers of ten a double holds exactly.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The double a short literal is exactly, when it is one.
std::optional<double> ExactDouble(const DecimalParts& p) {
  if (p.digits.empty()) return p.negative ? -0.0 : 0.0;
  if (p.digits.size() > 15 || p.exp10 < -22 || p.exp10 > 22) return std::nullopt;
  double m = 0;
  for (char c : p.digits) m = m * 10 + (c - '0');
  double scale = kPow10[std::labs(p.exp10)];
  double r;
  if (p.exp10 >= 0) {
    r = m * scale;
    if (!std::isfinite(r) || std::fma(m, scale, -r) != 0) return std::nullopt;
  } else {
    r = m / scale;
    if (std::fabs(r) < kNoUnderflow || std::fma(r, scale, -m) != 0) return std::nullopt;
  }
  return p.negative ? -r : r;
}

// Go's big.Int digit values (see ParseInteger).
int DigitOf(char c, int base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + (base <= 36 ? 10 : 36);
  return 99;
}

// Loads a number into `f`, whose precision is at least the number's (exact).
void Load(mpfr_t f, double d, const Number::Big* big) {
  if (big) {
    mpfr_set(f, big->f, MPFR_RNDN);
  } else {
    mpfr_set_d(f, d, MPFR_RNDN);
  }
}

}  // namespace number_detail

namespace nd = number_detail;

Number Number::FromDouble(double d) { return Number(d, false); }

Number Number::FromInt(int64_t n) {
  constexpr int64_t kLimit = int64_t{1} << 53;
  if (n >= -kLimit && n <= kLimit) return Number(static_cast<double>(n), true);
  auto big = std::make_shared<Big>(kWideBits);
  mpfr_set_sj(big->f, n, MPFR_RNDN);
  return FromBig(std::move(big));
}

Number Number::FromBig(std::shared_ptr<Big> big) {
  if (mpfr_nan_p(big->f)) return Number(std::nan(""), true);
  // Beyond the bound a number is infinite (or zero), so that no text or operation on it
  // grows without limit (1e+315653 would print as that many digits).
  if (mpfr_regular_p(big->f) && std::labs(mpfr_get_exp(big->f)) > nd::kMaxBinaryExponent) {
    bool negative = mpfr_signbit(big->f) != 0;
    if (mpfr_get_exp(big->f) > 0) return Number(negative ? -INFINITY : INFINITY, true);
    return Number(negative ? -0.0 : 0.0, true);
  }
  bool wide = mpfr_get_prec(big->f) > kDoubleBits;
  double d = mpfr_get_d(big->f, MPFR_RNDN);
  // Back to the fast path when the double is the value; a 53-bit value outside a
  // double's normal range stays big (big.Float has no overflow or subnormals).
  if ((std::isinf(d) && mpfr_inf_p(big->f)) ||
      (std::isfinite(d) && mpfr_cmp_d(big->f, d) == 0 && (wide || d == 0 || std::fabs(d) >= DBL_MIN))) {
    if (d == 0) d = mpfr_signbit(big->f) ? -0.0 : 0.0;
    return Number(d, wide);
  }
  Number n;
  n.big_ = std::move(big);
  n.wide_ = wide;
  return n;
}

std::optional<Number> Number::Parse(std::string_view text) {
  auto parts = nd::SplitDecimal(text);
  if (!parts) return std::nullopt;
  if (auto d = nd::ExactDouble(*parts)) return Number(*d, true);
  auto big = std::make_shared<Big>(kWideBits);
  // MPFR reads "5." and ".5" as Go does.
  std::string s(text);
  mpfr_strtofr(big->f, s.c_str(), nullptr, 10, MPFR_RNDN);
  return FromBig(std::move(big));
}

std::optional<Number> Number::ParseInteger(std::string_view digits, int base, bool negative) {
  if (digits.empty() || base < 2 || base > 62) return std::nullopt;
  // GMP reads letters the other way round above base 36; swap their case for it.
  std::string text(digits);
  for (char& c : text) {
    if (nd::DigitOf(c, base) >= base) return std::nullopt;
    if (base > 36 && std::isalpha(static_cast<unsigned char>(c))) {
      c = std::islower(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c))
                                                      : static_cast<char>(std::tolower(c));
    }
  }
  nd::Mpz z;
  if (mpz_set_str(z.z, text.c_str(), base) != 0) return std::nullopt;
  if (negative) mpz_neg(z.z, z.z);
  long bits = std::max<long>(kWideBits, static_cast<long>(mpz_sizeinbase(z.z, 2)));
  auto big = std::make_shared<Big>(bits);
  mpfr_set_z(big->f, z.z, MPFR_RNDN);
  return FromBig(std::move(big));
}

long Number::Precision() const {
  if (big_) return static_cast<long>(mpfr_get_prec(big_->f));
  return wide_ ? kWideBits : kDoubleBits;
}

bool Number::IsNaN() const { return !big_ && std::isnan(d_); }

bool Number::IsInfinite() const { return !big_ && std::isinf(d_); }

bool Number::IsInteger() const {
  if (big_) return mpfr_integer_p(big_->f) != 0;
  return std::isfinite(d_) && d_ == std::floor(d_);
}

int Number::Sign() const {
  if (big_) return mpfr_sgn(big_->f);
  return d_ > 0 ? 1 : d_ < 0 ? -1 : 0;
}

double Number::ToDouble() const { return big_ ? mpfr_get_d(big_->f, MPFR_RNDN) : d_; }

std::optional<int64_t> Number::ToInt64() const {
  if (!IsInteger()) return std::nullopt;
  if (!big_) {
    if (std::fabs(d_) >= 9223372036854775808.0) return std::nullopt;
    return static_cast<int64_t>(d_);
  }
  if (!mpfr_fits_intmax_p(big_->f, MPFR_RNDZ)) return std::nullopt;
  return static_cast<int64_t>(mpfr_get_sj(big_->f, MPFR_RNDZ));
}

std::string Number::ToString() const {
  if (!big_) {
    if (std::isnan(d_)) return "NaN";
    if (std::isinf(d_)) return d_ > 0 ? "+Inf" : "-Inf";
    if (std::fabs(d_) < nd::kExactIntegerLimit && d_ == std::floor(d_)) return nd::IntegerText(d_);
    if (!wide_ && !nd::IsPowerOfTwo(d_)) return nd::FixedText(std::signbit(d_), nd::DoubleDigits(d_));
    if (wide_) {
      // A double whose shortest digits are its exact value (0.25, 3.5): no closer decimal
      // with fewer digits exists at 512 bits either, so they are its text.
      nd::NumberDecimal digits = nd::DoubleDigits(d_);
      nd::DecimalParts parts{false, digits.digits, digits.exp - static_cast<long>(digits.digits.size())};
      auto exact = nd::ExactDouble(parts);
      if (exact && *exact == std::fabs(d_)) return nd::FixedText(std::signbit(d_), digits);
    }
    Big f(Precision());
    mpfr_set_d(f.f, d_, MPFR_RNDN);
    return nd::ShortestText(f.f);
  }
  return nd::ShortestText(big_->f);
}

std::string Number::ToIntegerString(int base) const {
  if (!big_ && base == 10 && std::fabs(d_) < nd::kExactIntegerLimit) return nd::IntegerText(std::trunc(d_));
  Big f(Precision());
  nd::Load(f.f, d_, big_.get());
  nd::Mpz z;
  mpfr_get_z(z.z, f.f, MPFR_RNDZ);
  return nd::MpzDigits(z.z, base);
}

std::string Number::ToFixed(int digits) const {
  Big f(Precision());
  nd::Load(f.f, d_, big_.get());
  char* text = nullptr;
  mpfr_asprintf(&text, "%.*Rf", digits, f.f);
  std::string out = text ? text : "";
  mpfr_free_str(text);
  return out;
}

// The slow path of a binary operation: both operands at the larger precision.
Number Number::Slow(const Number& a, const Number& b, SlowOp op) {
  long bits = std::max(a.Precision(), b.Precision());
  Big x(bits), y(bits);
  nd::Load(x.f, a.d_, a.big_.get());
  nd::Load(y.f, b.d_, b.big_.get());
  auto r = std::make_shared<Big>(bits);
  switch (op) {
    case SlowOp::Add: mpfr_add(r->f, x.f, y.f, MPFR_RNDN); break;
    case SlowOp::Mul: mpfr_mul(r->f, x.f, y.f, MPFR_RNDN); break;
    case SlowOp::Div: mpfr_div(r->f, x.f, y.f, MPFR_RNDN); break;
  }
  return FromBig(std::move(r));
}

Number Number::operator-() const {
  if (!big_) return Number(-d_, wide_);
  auto r = std::make_shared<Big>(Precision());
  mpfr_neg(r->f, big_->f, MPFR_RNDN);
  return FromBig(std::move(r));
}

Number operator+(const Number& a, const Number& b) {
  if (!a.big_ && !b.big_) {
    bool wide = a.wide_ || b.wide_;
    double s = a.d_ + b.d_;
    if (!std::isfinite(a.d_) || !std::isfinite(b.d_)) return Number(s, wide);
    if (std::isfinite(s)) {
      // Sums are exact in the subnormal range; TwoSum's error term says whether this one is.
      double bb = s - a.d_;
      double err = (a.d_ - (s - bb)) + (b.d_ - bb);
      if (err == 0 || !wide) return Number(s, wide);
    }
  }
  return Number::Slow(a, b, Number::SlowOp::Add);
}

Number operator-(const Number& a, const Number& b) { return a + (-b); }

Number operator*(const Number& a, const Number& b) {
  if (!a.big_ && !b.big_) {
    bool wide = a.wide_ || b.wide_;
    double p = a.d_ * b.d_;
    if (!std::isfinite(a.d_) || !std::isfinite(b.d_)) return Number(p, wide);
    if (std::isfinite(p) && (a.d_ == 0 || b.d_ == 0 || std::fabs(p) >= nd::kNoUnderflow) &&
        (!wide || std::fma(a.d_, b.d_, -p) == 0)) {
      return Number(p, wide);
    }
  }
  return Number::Slow(a, b, Number::SlowOp::Mul);
}

Number operator/(const Number& a, const Number& b) {
  if (!a.big_ && !b.big_) {
    bool wide = a.wide_ || b.wide_;
    double q = a.d_ / b.d_;
    if (!std::isfinite(a.d_) || !std::isfinite(b.d_) || b.d_ == 0) return Number(q, wide);
    if (std::isfinite(q) && (a.d_ == 0 || std::fabs(q) >= nd::kNoUnderflow) &&
        (!wide || std::fma(q, b.d_, -a.d_) == 0)) {
      return Number(q, wide);
    }
  }
  if (b.Sign() == 0) return Number(a.Sign() == 0 ? std::nan("") : a.Sign() > 0 ? INFINITY : -INFINITY, true);
  return Number::Slow(a, b, Number::SlowOp::Div);
}

Number Number::Mod(const Number& b) const {
  if (IsNaN() || b.IsNaN() || b.Sign() == 0) return Number(std::nan(""), true);
  if (IsInfinite()) return *this;
  if (b.IsInfinite()) return *this;
  if (!big_ && !b.big_ && std::fabs(d_) < nd::kExactIntegerLimit && std::fabs(b.d_) < nd::kExactIntegerLimit &&
      d_ == std::floor(d_) && b.d_ == std::floor(b.d_)) {
    return Number(std::fmod(d_, b.d_), wide_ || b.wide_);
  }
  // cty: the quotient at the larger precision, truncated; then a - b * q at a's precision.
  long bits = std::max(Precision(), b.Precision());
  Big x(bits), y(bits), q(bits);
  nd::Load(x.f, d_, big_.get());
  nd::Load(y.f, b.d_, b.big_.get());
  mpfr_div(q.f, x.f, y.f, MPFR_RNDN);
  mpfr_trunc(q.f, q.f);
  long own = Precision();
  Big work(own);
  mpfr_set(work.f, q.f, MPFR_RNDN);
  mpfr_mul(work.f, y.f, work.f, MPFR_RNDN);
  auto r = std::make_shared<Big>(own);
  mpfr_sub(r->f, x.f, work.f, MPFR_RNDN);
  return FromBig(std::move(r));
}

Number Number::Abs() const { return Sign() < 0 ? -*this : *this; }

Number Number::Floor() const {
  if (!big_) return Number(std::floor(d_), wide_);
  auto r = std::make_shared<Big>(Precision());
  mpfr_floor(r->f, big_->f);
  return FromBig(std::move(r));
}

Number Number::Ceil() const {
  if (!big_) return Number(std::ceil(d_), wide_);
  auto r = std::make_shared<Big>(Precision());
  mpfr_ceil(r->f, big_->f);
  return FromBig(std::move(r));
}

int Number::Compare(const Number& a, const Number& b) {
  if (a.IsNaN() || b.IsNaN()) return a.IsNaN() - b.IsNaN();
  if (!a.big_ && !b.big_) return a.d_ < b.d_ ? -1 : a.d_ > b.d_ ? 1 : 0;
  long bits = std::max(a.Precision(), b.Precision());
  Big x(bits), y(bits);
  nd::Load(x.f, a.d_, a.big_.get());
  nd::Load(y.f, b.d_, b.big_.get());
  int c = mpfr_cmp(x.f, y.f);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

bool Number::Equals(const Number& other) const {
  if (!big_ && !other.big_) {
    if (wide_ == other.wide_) return d_ == other.d_;
    if (std::fabs(d_) < nd::kExactIntegerLimit && std::fabs(other.d_) < nd::kExactIntegerLimit &&
        d_ == std::floor(d_) && other.d_ == std::floor(other.d_)) {
      return d_ == other.d_;
    }
  } else if (Precision() == other.Precision()) {
    return Compare(*this, other) == 0 && !IsNaN();
  }
  if (Sign() == 0 && other.Sign() == 0) return true;
  return ToString() == other.ToString();
}

}  // namespace strata
