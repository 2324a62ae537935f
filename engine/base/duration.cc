#include "engine/base/duration.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace strata::base {
namespace {

// The unit at text[pos] in nanoseconds, and its length (0: no unit there).
std::pair<double, size_t> Unit(const std::string& text, size_t pos) {
  if (text.compare(pos, 2, "ns") == 0) return {1, 2};
  if (text.compare(pos, 2, "us") == 0) return {1e3, 2};
  if (text.compare(pos, 3, "\xC2\xB5s") == 0) return {1e3, 3};  // µs
  if (text.compare(pos, 2, "ms") == 0) return {1e6, 2};
  if (pos >= text.size()) return {0, 0};
  switch (text[pos]) {
    case 'h': return {3600e9, 1};
    case 'm': return {60e9, 1};
    case 's': return {1e9, 1};
    default: return {0, 0};
  }
}

}  // namespace

std::optional<std::chrono::nanoseconds> ParseDuration(const std::string& text) {
  if (text == "0") return std::chrono::nanoseconds(0);
  size_t pos = 0;
  auto digits = [&] {
    size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    return pos > start;
  };
  double total = 0;
  while (pos < text.size()) {
    size_t start = pos;
    if (!digits()) return std::nullopt;
    if (pos < text.size() && text[pos] == '.' && (++pos, !digits())) return std::nullopt;
    double n = std::strtod(text.substr(start, pos - start).c_str(), nullptr);
    auto [unit, length] = Unit(text, pos);
    if (length == 0) return std::nullopt;
    pos += length;
    total += n * unit;
  }
  if (pos == 0 || !(total < 9.2e18)) return std::nullopt;  // beyond that, int64 nanoseconds overflow
  return std::chrono::nanoseconds(static_cast<int64_t>(total));
}

std::optional<std::chrono::nanoseconds> ParseGoDuration(const std::string& text, std::string* error) {
  auto fail = [&](std::string message) {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  auto invalid = [&]() { return fail("time: invalid duration \"" + text + "\""); };
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return invalid();
  constexpr uint64_t kMax = uint64_t(1) << 63;
  uint64_t total = 0;
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0]))) return invalid();
    uint64_t whole = 0;
    size_t i = 0;
    for (; i < s.size() && is_digit(s[i]); ++i) {
      if (whole > (kMax - 1) / 10) return invalid();
      whole = whole * 10 + uint64_t(s[i] - '0');
      if (whole > kMax) return invalid();
    }
    bool pre = i > 0;
    s.remove_prefix(i);
    uint64_t fraction = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      size_t j = 0;
      bool overflow = false;
      for (; j < s.size() && is_digit(s[j]); ++j) {
        if (overflow) continue;
        if (fraction > (kMax - 1) / 10) {
          overflow = true;  // further digits do not matter at nanosecond precision
          continue;
        }
        fraction = fraction * 10 + uint64_t(s[j] - '0');
        scale *= 10;
      }
      post = j > 0;
      s.remove_prefix(j);
    }
    if (!pre && !post) return invalid();
    size_t u = 0;
    while (u < s.size() && s[u] != '.' && !is_digit(s[u])) ++u;
    if (u == 0) return fail("time: missing unit in duration \"" + text + "\"");
    std::string_view unit_text = s.substr(0, u);
    s.remove_prefix(u);
    uint64_t unit = 0;
    if (unit_text == "ns") unit = 1;
    else if (unit_text == "us" || unit_text == "\xC2\xB5s" || unit_text == "\xCE\xBCs") unit = 1000;
    else if (unit_text == "ms") unit = 1000000;
    else if (unit_text == "s") unit = 1000000000;
    else if (unit_text == "m") unit = 60ull * 1000000000;
    else if (unit_text == "h") unit = 3600ull * 1000000000;
    else return fail("time: unknown unit \"" + std::string(unit_text) + "\" in duration \"" + text + "\"");
    if (whole > kMax / unit) return invalid();
    whole *= unit;
    if (fraction > 0) {
      whole += uint64_t(double(fraction) * (double(unit) / scale));
      if (whole > kMax) return invalid();
    }
    total += whole;
    if (total > kMax) return invalid();
  }
  if (!negative && total > kMax - 1) return invalid();
  return std::chrono::nanoseconds(negative ? -int64_t(total - 1) - 1 : int64_t(total));
}

std::string FormatDuration(std::chrono::nanoseconds d) {
  long long s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  std::string out;
  if (s >= 3600) out += std::to_string(s / 3600) + "h";
  if (s >= 60) out += std::to_string((s / 60) % 60) + "m";
  out += std::to_string(s % 60) + "s";
  return out;
}

}  // namespace strata::base
