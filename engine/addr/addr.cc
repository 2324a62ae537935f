#include "engine/addr/addr.h"

#include <cctype>

#include <fmt/format.h>

namespace strata {
namespace {

std::string QuoteKey(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A cursor over an address string: identifiers, dots and [key] suffixes.
class AddrLexer {
 public:
  explicit AddrLexer(const std::string& text) : text_(text) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  bool Peek(char c) const { return !AtEnd() && text_[pos_] == c; }
  bool Accept(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  std::string Identifier() {
    size_t start = pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                        text_[pos_] == '-')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  // After '[' has been consumed: an integer or a quoted string, then ']'.
  std::optional<InstanceKey> Key() {
    if (Accept('"')) {
      std::string s;
      while (!AtEnd() && !Peek('"')) {
        if (Peek('\\')) ++pos_;
        if (AtEnd()) return std::nullopt;
        s += text_[pos_++];
      }
      if (!Accept('"') || !Accept(']')) return std::nullopt;
      return InstanceKey::String(s);
    }
    size_t start = pos_;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (start == pos_ || pos_ - start > 18) return std::nullopt;
    int64_t n = std::stoll(text_.substr(start, pos_ - start));
    if (!Accept(']')) return std::nullopt;
    return InstanceKey::Int(n);
  }
  size_t pos() const { return pos_; }
  void set_pos(size_t p) { pos_ = p; }

 private:
  const std::string& text_;
  size_t pos_ = 0;
};

// Consumes "module.NAME[KEY]." steps while they are there.
bool ParseModuleSteps(AddrLexer& lex, ModulePath& path, std::string& error) {
  for (;;) {
    size_t save = lex.pos();
    if (lex.Identifier() != "module" || !lex.Accept('.')) {
      lex.set_pos(save);
      return true;
    }
    std::string name = lex.Identifier();
    if (name.empty()) {
      error = "expected a module name after \"module.\"";
      return false;
    }
    InstanceKey key;
    if (lex.Accept('[')) {
      auto k = lex.Key();
      if (!k) {
        error = "a module instance key must be a number or a quoted string in brackets";
        return false;
      }
      key = *k;
    }
    path.steps.push_back({name, key});
    if (!lex.Accept('.')) {
      // A bare module path; the caller decides whether that is allowed.
      return true;
    }
  }
}

}  // namespace

std::string InstanceKey::ToString() const {
  if (IsInt()) return fmt::format("[{}]", AsInt());
  if (IsString()) return std::string(1, '[').append(QuoteKey(AsString())).append(1, ']');
  return "";
}

ModulePath ModulePath::Child(std::string name, InstanceKey key) const {
  ModulePath p = *this;
  p.steps.push_back({std::move(name), std::move(key)});
  return p;
}

bool PlanOrderLess(const ResourceInstanceAddr& a, const ResourceInstanceAddr& b) {
  if (a.module != b.module) return a.module < b.module;
  if (a.resource.mode != b.resource.mode) return a.resource.mode == ResourceMode::Data;
  if (a.resource.type != b.resource.type) return a.resource.type < b.resource.type;
  if (a.resource.name != b.resource.name) return a.resource.name < b.resource.name;
  return a.key < b.key;
}

ModulePath ModulePath::WithoutKeys() const {
  ModulePath out;
  for (const ModuleStep& step : steps) out.steps.push_back({step.name, {}});
  return out;
}

std::string ModulePath::ToString() const {
  std::string out;
  for (const auto& step : steps) {
    if (!out.empty()) out += ".";
    out += "module." + step.name + step.key.ToString();
  }
  return out;
}

std::string ResourceAddr::ToString() const {
  return (mode == ResourceMode::Data ? "data." : "") + type + "." + name;
}

std::string ResourceInstanceAddr::ToString() const {
  std::string m = module.ToString();
  return (m.empty() ? "" : m + ".") + resource.ToString() + key.ToString();
}

AddrParseResult ParseResourceInstanceAddr(const std::string& text) {
  AddrParseResult result;
  AddrLexer lex(text);
  ResourceInstanceAddr addr;
  if (!ParseModuleSteps(lex, addr.module, result.error)) return result;
  size_t save = lex.pos();
  std::string first = lex.Identifier();
  if (first == "data" && lex.Accept('.')) {
    addr.resource.mode = ResourceMode::Data;
    first = lex.Identifier();
  } else if (first == "data") {
    lex.set_pos(save);
    first = lex.Identifier();
  }
  if (first.empty() || !lex.Accept('.')) {
    result.error = "expected a resource address such as aws_vpc.main or module.eks.aws_eks_cluster.this";
    return result;
  }
  addr.resource.type = first;
  addr.resource.name = lex.Identifier();
  if (addr.resource.name.empty()) {
    result.error = fmt::format("expected a resource name after \"{}.\"", first);
    return result;
  }
  if (lex.Accept('[')) {
    auto k = lex.Key();
    if (!k) {
      result.error = "an instance key must be a number or a quoted string in brackets, like [0] or [\"a\"]";
      return result;
    }
    addr.key = *k;
    result.has_key = true;
  }
  if (!lex.AtEnd()) {
    result.error = fmt::format("unexpected text at position {} of the address", lex.pos() + 1);
    return result;
  }
  result.addr = std::move(addr);
  return result;
}

std::optional<ModulePath> ParseModulePath(const std::string& text) {
  AddrLexer lex(text);
  ModulePath path;
  std::string error;
  if (!ParseModuleSteps(lex, path, error) || !lex.AtEnd() || path.IsRoot()) return std::nullopt;
  return path;
}

}  // namespace strata
