#include "providers/kubernetes/typed/quantity.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

namespace strata::kubernetes {
namespace {

// A quantity's exact value as sign · odd · 2^twos · 5^fives, where `odd` has no factor 2
// or 5: two quantities are equal exactly when these are (unique factorization).
struct Factored {
  bool negative = false;
  bool zero = false;
  uint64_t rest = 0;
  int64_t twos = 0;
  int64_t fives = 0;
  bool operator==(const Factored& o) const {
    if (zero || o.zero) return zero == o.zero;
    return negative == o.negative && rest == o.rest && twos == o.twos && fives == o.fives;
  }
};

std::optional<Factored> Factor(std::string_view text) {
  Factored f;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) f.negative = text[i++] == '-';
  uint64_t mantissa = 0;
  int64_t exponent10 = 0;
  int digits = 0;
  bool point = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    if (mantissa == 0 && c == '0') {
      if (point) --exponent10;
      ++digits;
      continue;
    }
    if (digits >= 18) return std::nullopt;  // beyond what a quantity holds exactly here
    mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
    ++digits;
    if (point) --exponent10;
  }
  if (digits == 0) return std::nullopt;
  std::string_view suffix = text.substr(i);
  int64_t twos = 0;
  static const struct {
    std::string_view name;
    int64_t tens, twos;
  } kSuffixes[] = {{"", 0, 0},   {"n", -9, 0}, {"u", -6, 0}, {"m", -3, 0},  {"k", 3, 0},   {"M", 6, 0},
                   {"G", 9, 0},  {"T", 12, 0}, {"P", 15, 0}, {"E", 18, 0},  {"Ki", 0, 10}, {"Mi", 0, 20},
                   {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50}, {"Ei", 0, 60}};
  bool known = false;
  for (const auto& s : kSuffixes) {
    if (suffix == s.name) {
      exponent10 += s.tens;
      twos += s.twos;
      known = true;
    }
  }
  if (!known) {  // a decimal exponent: "1e3", "5E-2"
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) return std::nullopt;
    std::string rest(suffix.substr(1));
    size_t used = 0;
    long long e = 0;
    try {
      e = std::stoll(rest, &used);
    } catch (...) {
      return std::nullopt;
    }
    if (used != rest.size()) return std::nullopt;
    exponent10 += e;
  }
  if (mantissa == 0) {
    f.zero = true;
    return f;
  }
  while (mantissa % 2 == 0) mantissa /= 2, ++twos;
  int64_t fives = 0;
  while (mantissa % 5 == 0) mantissa /= 5, ++fives;
  f.rest = mantissa;
  f.twos = twos + exponent10;
  f.fives = fives + exponent10;
  return f;
}

}  // namespace

bool EquivalentQuantities(std::string_view a, std::string_view b) {
  std::optional<Factored> x = Factor(a), y = Factor(b);
  return x && y && *x == *y;
}

}  // namespace strata::kubernetes
