#include "engine/config/names.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace strata {

bool IsValidName(const std::string& name) {
  // Byte by byte: the bytes of a UTF-8 letter such as "é" are none of these.
  auto first = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto rest = [&](char c) { return first(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'; };
  return !name.empty() && first(name[0]) && std::all_of(name.begin() + 1, name.end(), rest);
}

bool IsProviderKey(const std::string& key) {
  size_t dot = key.find('.');
  if (dot == std::string::npos) return IsValidName(key);
  return IsValidName(key.substr(0, dot)) && IsValidName(key.substr(dot + 1));
}

std::string InvalidNameDetail(const std::string& name) {
  return fmt::format(
      "\"{}\" is not a valid name: use letters, digits, underscores and dashes, starting with a letter or underscore.",
      name);
}

}  // namespace strata
