#include "engine/value/format.h"

#include <cctype>

#include <fmt/format.h>

namespace strata {
namespace {

bool IsIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

void Format(const Value& v, int indent, const FormatOptions& o, std::string& out);

void FormatSequence(const Value& v, int indent, const FormatOptions& o, std::string& out) {
  const char* prefix = v.kind() == ValueKind::List ? "tolist(" : v.kind() == ValueKind::Set ? "toset(" : "";
  const auto& items = v.AsList();
  out += prefix;
  if (items.empty()) {
    out += "[]";
  } else {
    out += "[\n";
    for (const auto& e : items) {
      out += std::string(indent + 2, ' ');
      Format(e, indent + 2, o, out);
      out += ",\n";
    }
    out += std::string(indent, ' ') + "]";
  }
  if (*prefix) out += ")";
}

void FormatMapping(const Value& v, int indent, const FormatOptions& o, std::string& out) {
  bool is_map = v.kind() == ValueKind::Map;
  const auto& items = v.AsMap();
  out += is_map ? "tomap(" : "";
  if (items.empty()) {
    out += "{}";
  } else {
    size_t width = 0;
    for (const auto& [k, e] : items) width = std::max(width, FormatKey(k).size());
    out += "{\n";
    for (const auto& [k, e] : items) {
      std::string key = FormatKey(k);
      out += std::string(indent + 2, ' ') + key + std::string(width - key.size(), ' ') + " = ";
      Format(e, indent + 2, o, out);
      out += "\n";
    }
    out += std::string(indent, ' ') + "}";
  }
  out += is_map ? ")" : "";
}

void Format(const Value& v, int indent, const FormatOptions& o, std::string& out) {
  if (v.IsSensitive() && !o.reveal_sensitive) {
    out += "(sensitive value)";
    return;
  }
  switch (v.kind()) {
    case ValueKind::Null: out += "null"; return;
    case ValueKind::Unknown: out += "(known after apply)"; return;
    case ValueKind::Bool: out += v.AsBool() ? "true" : "false"; return;
    case ValueKind::Number: out += FormatNumber(v.AsExactNumber()); return;
    case ValueKind::String: out += QuoteString(v.AsString()); return;
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: FormatSequence(v, indent, o, out); return;
    case ValueKind::Map:
    case ValueKind::Object: FormatMapping(v, indent, o, out); return;
  }
}

}  // namespace

std::string QuoteString(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if ((c == '$' || c == '%') && i + 1 < s.size() && s[i + 1] == '{') {
          out += c;
          out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string FormatKey(const std::string& key) { return IsIdentifier(key) ? key : QuoteString(key); }

std::string FormatValue(const Value& v, const FormatOptions& options) {
  std::string out;
  Format(v, options.indent, options, out);
  return out;
}

}  // namespace strata
