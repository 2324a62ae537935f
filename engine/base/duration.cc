#include "engine/base/duration.h"

#include <cctype>
#include <cstdlib>
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

std::string FormatDuration(std::chrono::nanoseconds d) {
  long long s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  std::string out;
  if (s >= 3600) out += std::to_string(s / 3600) + "h";
  if (s >= 60) out += std::to_string((s / 60) % 60) + "m";
  out += std::to_string(s % 60) + "s";
  return out;
}

}  // namespace strata::base
