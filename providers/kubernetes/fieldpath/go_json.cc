#include "providers/kubernetes/fieldpath/go_json.h"

#include <cstdio>

namespace strata::kubernetes::fieldpath {
namespace {

void AppendHex4(std::string& out, unsigned code) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\u%04x", code);
  out += buffer;
}

// Go's encodeState.string: short escapes for \n \r \t, \u00XX for other control bytes,
// HTML-unsafe characters and the two JavaScript line separators escaped too.
void AppendGoString(std::string& out, std::string_view text) {
  out += '"';
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '<': case '>': case '&': AppendHex4(out, c); continue;
      default: break;
    }
    if (c < 0x20) {
      AppendHex4(out, c);
      continue;
    }
    // U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      AppendHex4(out, static_cast<unsigned char>(text[i + 2]) == 0xA8 ? 0x2028 : 0x2029);
      i += 2;
      continue;
    }
    out += static_cast<char>(c);
  }
  out += '"';
}

void AppendGoJson(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.items()) {  // nlohmann keeps keys sorted
        if (!first) out += ',';
        first = false;
        AppendGoString(out, key);
        out += ':';
        AppendGoJson(out, member);
      }
      out += '}';
      return;
    }
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const Json& item : value) {
        if (!first) out += ',';
        first = false;
        AppendGoJson(out, item);
      }
      out += ']';
      return;
    }
    case Json::value_t::string:
      AppendGoString(out, value.get_ref<const std::string&>());
      return;
    default:
      out += value.dump();  // numbers, booleans, null: the same text in both
      return;
  }
}

}  // namespace

std::string GoJson(const Json& value) {
  std::string out;
  AppendGoJson(out, value);
  return out;
}

std::string GoQuote(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\v': out += "\\v"; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
      continue;
    }
    out += ch;  // printable ASCII and UTF-8 sequences pass through, as Go keeps printable runes
  }
  out += '"';
  return out;
}

}  // namespace strata::kubernetes::fieldpath
