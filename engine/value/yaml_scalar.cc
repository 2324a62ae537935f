#include "engine/value/yaml_scalar.h"

#include <cctype>

namespace strata {

bool IsYamlDecimal(std::string_view s) {
  size_t i = 0;
  auto accept = [&](char a, char b) {
    if (i < s.size() && (s[i] == a || s[i] == b)) ++i;
  };
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i - start;
  };
  accept('+', '-');
  size_t whole = digits();
  size_t fraction = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (whole == 0 && fraction == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    accept('+', '-');
    if (digits() == 0) return false;
  }
  return i == s.size();
}

}  // namespace strata
