#include "providers/builtin/duration.h"

#include <cctype>

namespace strata::builtin {

std::optional<std::chrono::nanoseconds> ParseDuration(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text == "0") return std::chrono::nanoseconds(0);
  size_t i = 0;
  double total = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      ++i;
    if (i == start) return std::nullopt;
    double number = 0;
    try {
      number = std::stod(text.substr(start, i - start));
    } catch (...) {
      return std::nullopt;
    }
    size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    std::string unit = text.substr(unit_start, i - unit_start);
    double scale = 0;
    if (unit == "ns") scale = 1;
    else if (unit == "us" || unit == "µs") scale = 1e3;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "s") scale = 1e9;
    else if (unit == "m") scale = 60e9;
    else if (unit == "h") scale = 3600e9;
    else return std::nullopt;
    total += number * scale;
  }
  return std::chrono::nanoseconds(static_cast<long long>(total));
}

std::string FormatDuration(std::chrono::nanoseconds d) {
  long long s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  std::string out;
  if (s >= 3600) out += std::to_string(s / 3600) + "h";
  if (s >= 60) out += std::to_string((s / 60) % 60) + "m";
  out += std::to_string(s % 60) + "s";
  return out;
}

}  // namespace strata::builtin
