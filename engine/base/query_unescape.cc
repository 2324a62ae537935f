#include "engine/base/query_unescape.h"

namespace strata::base {
namespace {

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> QueryUnescape(std::string_view s, size_t* bad_at) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] != '%') {
      out += s[i];
    } else {
      int high = i + 1 < s.size() ? HexDigitValue(s[i + 1]) : -1;
      int low = i + 2 < s.size() ? HexDigitValue(s[i + 2]) : -1;
      if (high < 0 || low < 0) {
        if (bad_at) *bad_at = i;
        return std::nullopt;
      }
      out += static_cast<char>(high * 16 + low);
      i += 2;
    }
  }
  return out;
}

}  // namespace strata::base
