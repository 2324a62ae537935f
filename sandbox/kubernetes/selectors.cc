#include "sandbox/kubernetes/selectors.h"

#include <algorithm>
#include <cctype>

namespace strata::sandbox::k8s {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Characters that may appear in label keys and values (qualified names, label values).
bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/';
}

// A small scanner over one selector string.
class Scanner {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}
  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool Take(const std::string& token) {
    SkipSpace();
    if (text_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }
  // A word of name characters; empty when none.
  std::string Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  std::string Rest() const { return text_.substr(std::min(pos_, text_.size())); }

 private:
  const std::string& text_;
  size_t pos_ = 0;
};

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// `(a, b, c)` after in/notin.
bool ParseValueSet(Scanner& s, std::vector<std::string>& values, std::string& error) {
  if (!s.Take("(")) {
    error = "unable to parse requirement: found " + Quote(s.Rest()) + ", expected: '('";
    return false;
  }
  while (true) {
    values.push_back(s.Word());
    if (s.Take(")")) return true;
    if (!s.Take(",")) {
      error = "unable to parse requirement: found " + Quote(s.Rest()) + ", expected: ',', ')'";
      return false;
    }
  }
}

std::optional<LabelRequirement> ParseRequirement(Scanner& s, std::string& error) {
  LabelRequirement r;
  if (s.Take("!")) {
    r.key = s.Word();
    r.op = LabelRequirement::Op::DoesNotExist;
    if (r.key.empty()) error = "unable to parse requirement: found " + Quote(s.Rest()) + ", expected: identifier";
    return error.empty() ? std::optional(r) : std::nullopt;
  }
  r.key = s.Word();
  if (r.key.empty()) {
    error = "unable to parse requirement: found " + Quote(s.Rest()) + ", expected: !, identifier";
    return std::nullopt;
  }
  if (s.AtEnd() || s.Peek() == ',') {
    r.op = LabelRequirement::Op::Exists;
    return r;
  }
  if (s.Take("==") || s.Take("=")) {
    r.op = LabelRequirement::Op::Equals;
    r.values.push_back(s.Word());
  } else if (s.Take("!=")) {
    r.op = LabelRequirement::Op::NotEquals;
    r.values.push_back(s.Word());
  } else if (s.Take("notin")) {
    r.op = LabelRequirement::Op::NotIn;
    if (!ParseValueSet(s, r.values, error)) return std::nullopt;
  } else if (s.Take("in")) {
    r.op = LabelRequirement::Op::In;
    if (!ParseValueSet(s, r.values, error)) return std::nullopt;
  } else {
    error = "unable to parse requirement: found " + Quote(s.Rest()) +
            ", expected: in, notin, =, ==, !=, gt, lt";
    return std::nullopt;
  }
  return r;
}

const nlohmann::json* Lookup(const nlohmann::json& object, const std::string& dotted) {
  const nlohmann::json* at = &object;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    std::string key = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!at->is_object() || !at->contains(key)) return nullptr;
    at = &(*at)[key];
    if (dot == std::string::npos) return at;
    start = dot + 1;
  }
}

}  // namespace

std::optional<LabelSelector> LabelSelector::Parse(const std::string& text, std::string& error) {
  LabelSelector selector;
  Scanner s(text);
  if (s.AtEnd()) return selector;
  while (true) {
    std::optional<LabelRequirement> r = ParseRequirement(s, error);
    if (!r) return std::nullopt;
    selector.requirements_.push_back(std::move(*r));
    if (s.AtEnd()) return selector;
    if (!s.Take(",")) {
      error = "unable to parse requirement: found " + Quote(s.Rest()) + ", expected: ','";
      return std::nullopt;
    }
  }
}

bool LabelSelector::Matches(const nlohmann::json& labels) const {
  for (const LabelRequirement& r : requirements_) {
    const nlohmann::json* value =
        labels.is_object() && labels.contains(r.key) && labels[r.key].is_string() ? &labels[r.key] : nullptr;
    auto in = [&] {
      return value && std::find(r.values.begin(), r.values.end(), value->get<std::string>()) != r.values.end();
    };
    bool ok = false;
    switch (r.op) {
      case LabelRequirement::Op::Equals:
      case LabelRequirement::Op::In:
        ok = in();
        break;
      case LabelRequirement::Op::NotEquals:
      case LabelRequirement::Op::NotIn:
        ok = !in();
        break;
      case LabelRequirement::Op::Exists:
        ok = value != nullptr;
        break;
      case LabelRequirement::Op::DoesNotExist:
        ok = value == nullptr;
        break;
    }
    if (!ok) return false;
  }
  return true;
}

std::optional<FieldSelector> FieldSelector::Parse(const std::string& text, std::string& error) {
  FieldSelector selector;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t comma = text.find(',', start);
    std::string term = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t op = term.find_first_of("!=");
    if (op == std::string::npos || op == 0) {
      error = "invalid selector: '" + text + "'; can't understand '" + term + "'";
      return std::nullopt;
    }
    FieldRequirement r;
    r.field = term.substr(0, op);
    if (term.compare(op, 2, "!=") == 0) {
      r.equals = false;
      r.value = term.substr(op + 2);
    } else if (term.compare(op, 2, "==") == 0) {
      r.value = term.substr(op + 2);
    } else if (term[op] == '=') {
      r.value = term.substr(op + 1);
    } else {
      error = "invalid selector: '" + text + "'; can't understand '" + term + "'";
      return std::nullopt;
    }
    selector.requirements_.push_back(std::move(r));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return selector;
}

bool FieldSelector::Matches(const nlohmann::json& object) const {
  for (const FieldRequirement& r : requirements_) {
    const nlohmann::json* value = Lookup(object, r.field);
    std::string text;
    if (value && value->is_string()) text = value->get<std::string>();
    else if (value && !value->is_null()) text = value->dump();
    if ((text == r.value) != r.equals) return false;
  }
  return true;
}

}  // namespace strata::sandbox::k8s
