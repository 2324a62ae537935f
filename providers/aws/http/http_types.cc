#include "providers/aws/http/http_types.h"

#include <algorithm>

namespace strata::aws {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::optional<std::string> FindHeader(const HttpHeaders& headers, std::string_view name) {
  for (const auto& [k, v] : headers)
    if (EqualsIgnoreCase(k, name)) return v;
  return std::nullopt;
}

void RemoveHeader(HttpHeaders& headers, std::string_view name) {
  std::erase_if(headers, [&](const auto& h) { return EqualsIgnoreCase(h.first, name); });
}

void SetHeader(HttpHeaders& headers, std::string_view name, std::string value) {
  RemoveHeader(headers, name);
  headers.emplace_back(std::string(name), std::move(value));
}

}  // namespace strata::aws
