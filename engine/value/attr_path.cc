#include "engine/value/attr_path.h"

#include <cctype>

#include "engine/value/format.h"

namespace strata {

AttrPath AttrPath::Child(PathStep step) const {
  AttrPath p = *this;
  p.steps.push_back(std::move(step));
  return p;
}

bool AttrPath::IsPrefixOf(const AttrPath& other) const {
  if (steps.size() > other.steps.size()) return false;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!(steps[i] == other.steps[i])) return false;
  }
  return true;
}

std::string AttrPath::ToString() const {
  std::string out;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    switch (s.kind) {
      case PathStep::Kind::Attr:
        if (i > 0) out += ".";
        out += s.name;
        break;
      // Appended piece by piece: GCC 12 warns (-Wrestrict) on "[" + std::string at -O2/-O3.
      case PathStep::Kind::Key:
        out += '[';
        out += QuoteString(s.name);
        out += ']';
        break;
      case PathStep::Kind::Index:
        out += '[';
        out += std::to_string(s.index);
        out += ']';
        break;
    }
  }
  return out;
}

std::optional<AttrPath> AttrPath::Parse(const std::string& text) {
  AttrPath p;
  size_t i = 0;
  auto ident = [&]() -> std::optional<std::string> {
    size_t start = i;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '-')) ++i;
    if (i == start) return std::nullopt;
    return text.substr(start, i - start);
  };
  auto first = ident();
  if (!first) return std::nullopt;
  p.steps.push_back(PathStep::Attr(*first));
  while (i < text.size()) {
    if (text[i] == '.') {
      ++i;
      auto name = ident();
      if (!name) return std::nullopt;
      p.steps.push_back(PathStep::Attr(*name));
    } else if (text[i] == '[') {
      ++i;
      if (i < text.size() && text[i] == '"') {
        ++i;
        std::string key;
        while (i < text.size() && text[i] != '"') {
          if (text[i] == '\\' && i + 1 < text.size()) ++i;
          key += text[i++];
        }
        if (i >= text.size()) return std::nullopt;
        ++i;  // closing quote
        p.steps.push_back(PathStep::Key(key));
      } else {
        size_t start = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        if (i == start) return std::nullopt;
        p.steps.push_back(PathStep::Index(std::stoll(text.substr(start, i - start))));
      }
      if (i >= text.size() || text[i] != ']') return std::nullopt;
      ++i;
    } else {
      return std::nullopt;
    }
  }
  return p;
}

Value ValueAtPath(const Value& v, const AttrPath& path) {
  Value cur = v;
  for (const auto& s : path.steps) {
    if (s.kind == PathStep::Kind::Index) {
      if (!cur.IsSequence()) return Value::Null();
      const auto& items = cur.AsList();
      if (s.index < 0 || static_cast<size_t>(s.index) >= items.size()) return Value::Null();
      cur = items[s.index];
    } else {
      if (!cur.IsMapping()) return Value::Null();
      auto it = cur.AsMap().find(s.name);
      if (it == cur.AsMap().end()) return Value::Null();
      cur = it->second;
    }
  }
  return cur;
}

}  // namespace strata
