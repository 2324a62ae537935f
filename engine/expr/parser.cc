#include "engine/expr/parser.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "engine/expr/functions/util.h"
#include "engine/expr/nodes.h"
#include "engine/value/limits.h"

namespace strata {
namespace {

struct ParseError {
  SourceRange range;
  std::string summary;
  std::string detail;
};

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// Keywords of for-expressions that may not start a traversal.
bool IsReserved(const std::string& s) { return s == "for" || s == "in" || s == "if"; }

class Parser {
 public:
  Parser(std::string_view text, const SourceMapping& mapping) : text_(text), mapping_(mapping) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  ExprPtr ParseWholeExpression() {
    ExprPtr e = ParseExpr();
    SkipSpace();
    if (pos_ < text_.size()) {
      Fail(pos_, pos_ + 1, "Extra characters after expression",
           fmt::format("An expression must end here, but \"{}\" follows. Check for a missing operator "
                       "or an unbalanced bracket.", Snip(pos_)));
    }
    return e;
  }

  // Template mode over the whole text (no closing quote).
  ExprPtr ParseWholeTemplate() { return ParseTemplateUntil(TemplateEnd::EndOfText); }

 private:
  enum class TemplateEnd { EndOfText, Quote, Directive };

  // ---- positions ----------------------------------------------------------------------
  SourcePos PosAt(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    size_t line = static_cast<size_t>(it - line_starts_.begin()) - 1;
    int col = static_cast<int>(offset - line_starts_[line]);
    SourcePos p;
    p.line = mapping_.first_line + static_cast<int>(line);
    p.column = (line == 0 ? mapping_.first_col : mapping_.continuation_col) + col;
    p.byte = static_cast<int>(offset);
    return p;
  }
  SourceRange Range(size_t begin, size_t end) const {
    return SourceRange{mapping_.file, PosAt(begin), PosAt(std::max(begin, end))};
  }
  std::string Snip(size_t at) const {
    std::string s(text_.substr(at, 12));
    auto nl = s.find('\n');
    if (nl != std::string::npos) s.resize(nl);
    return s;
  }

  [[noreturn]] void Fail(size_t begin, size_t end, std::string summary, std::string detail) {
    throw ParseError{Range(begin, end), std::move(summary), std::move(detail)};
  }

  // ---- scanning -----------------------------------------------------------------------
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Cur() const { return AtEnd() ? '\0' : text_[pos_]; }
  char At(size_t off) const { return pos_ + off < text_.size() ? text_[pos_ + off] : '\0'; }

  void SkipSpace() {
    while (!AtEnd()) {
      char c = Cur();
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '#' || (c == '/' && At(1) == '/')) {
        while (!AtEnd() && Cur() != '\n') ++pos_;
      } else if (c == '/' && At(1) == '*') {
        size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) Fail(pos_, pos_ + 2, "Unterminated comment", "A /* comment has no closing */.");
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }
  bool Peek(std::string_view tok) {
    SkipSpace();
    return text_.substr(pos_, tok.size()) == tok;
  }
  bool Accept(std::string_view tok) {
    if (!Peek(tok)) return false;
    pos_ += tok.size();
    return true;
  }
  void Expect(std::string_view tok, std::string_view context) {
    if (Accept(tok)) return;
    std::string found = AtEnd() ? "the end of the expression" : fmt::format("\"{}\"", Snip(pos_));
    Fail(pos_, pos_ + 1, "Invalid expression",
         fmt::format("Expected \"{}\" {}, but found {}.", tok, context, found));
  }
  bool PeekKeyword(std::string_view word) {
    SkipSpace();
    if (text_.substr(pos_, word.size()) != word) return false;
    return !IsIdentChar(At(word.size()));
  }
  std::string Identifier() {
    SkipSpace();
    size_t start = pos_;
    if (!IsIdentStart(Cur())) return "";
    while (!AtEnd() && IsIdentChar(Cur())) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::string ExpectIdentifier(std::string_view what) {
    SkipSpace();
    size_t start = pos_;
    std::string id = Identifier();
    if (id.empty()) Fail(start, start + 1, "Invalid expression", fmt::format("Expected {} here.", what));
    return id;
  }

  // ---- expressions --------------------------------------------------------------------
  // Nesting is bounded (engine/value/limits.h) so that hostile input cannot exhaust the
  // stack: each level of expressions or template directives goes one level deeper. `room`
  // keeps levels free below this one (a directive's own expression sits under it), so that
  // the error names the construct that is too deep.
  void Deeper(const char* summary, const char* what, int room = 0) {
    if (++depth_ + room > kMaxNestingDepth) {
      Fail(pos_, pos_ + 1, summary,
           fmt::format("{} may nest at most {} levels deep; split this one up with locals.", what, kMaxNestingDepth));
    }
  }
  // A chain (1 + 2 + 3, a[0][1], x.*.y.z) nests its tree one level per link, though the
  // parser loops over it: its links count while its parts are parsed, until it ends.
  struct ChainDepth {
    int& depth;
    int saved;
    ~ChainDepth() { depth = saved; }
  };
  static constexpr const char* kTooDeep = "Expression too deeply nested";
  ExprPtr ParseExpr() {
    Deeper(kTooDeep, "Expressions");
    ExprPtr e = ParseConditional();
    --depth_;
    return e;
  }

  ExprPtr ParseConditional() {
    SkipSpace();
    size_t start = pos_;
    ExprPtr cond = ParseBinary(0);
    if (!Accept("?")) return cond;
    ExprPtr t = ParseExpr();
    Expect(":", "between the two results of a conditional expression");
    ExprPtr f = ParseExpr();
    return std::make_unique<ConditionalExpr>(std::move(cond), std::move(t), std::move(f), Range(start, pos_));
  }

  // Precedence climbing over the binary operators, lowest first.
  struct OpInfo {
    std::string_view token;
    BinaryOp op;
    int level;
  };
  static const std::vector<OpInfo>& Ops() {
    static const std::vector<OpInfo> ops = {
        {"||", BinaryOp::Or, 0},  {"&&", BinaryOp::And, 1}, {"==", BinaryOp::Eq, 2}, {"!=", BinaryOp::Ne, 2},
        {"<=", BinaryOp::Le, 3},  {">=", BinaryOp::Ge, 3},  {"<", BinaryOp::Lt, 3},  {">", BinaryOp::Gt, 3},
        {"+", BinaryOp::Add, 4},  {"-", BinaryOp::Sub, 4},  {"*", BinaryOp::Mul, 5}, {"/", BinaryOp::Div, 5},
        {"%", BinaryOp::Mod, 5},
    };
    return ops;
  }
  const OpInfo* PeekOp(int level) {
    SkipSpace();
    for (const auto& info : Ops()) {
      if (info.level != level || text_.substr(pos_, info.token.size()) != info.token) continue;
      // "=>" is not "=" and "==" handled above; "-" followed by a digit after an operand is still minus.
      if (info.token == ">" && At(1) == '=') continue;
      if (info.token == "<" && At(1) == '=') continue;
      return &info;
    }
    return nullptr;
  }
  ExprPtr ParseBinary(int level) {
    if (level > 5) return ParseUnary();
    SkipSpace();
    size_t start = pos_;
    ExprPtr lhs = ParseBinary(level + 1);
    ChainDepth chain{depth_, depth_};
    while (const OpInfo* info = PeekOp(level)) {
      Deeper(kTooDeep, "Chains of operators");
      pos_ += info->token.size();
      ExprPtr rhs = ParseBinary(level + 1);
      lhs = std::make_unique<BinaryExpr>(info->op, std::move(lhs), std::move(rhs), Range(start, pos_));
    }
    return lhs;
  }

  ExprPtr ParseUnary() {
    SkipSpace();
    size_t start = pos_;
    if ((Cur() == '!' && At(1) != '=') || Cur() == '-') Deeper(kTooDeep, "Unary operators");
    if (Cur() == '!' && At(1) != '=') {
      ++pos_;
      ExprPtr operand = ParseUnary();
      --depth_;
      return std::make_unique<UnaryExpr>(UnaryOp::Not, std::move(operand), Range(start, pos_));
    }
    if (Cur() == '-') {
      ++pos_;
      ExprPtr operand = ParseUnary();
      --depth_;
      return std::make_unique<UnaryExpr>(UnaryOp::Negate, std::move(operand), Range(start, pos_));
    }
    return ParsePostfix(ParsePrimary(), start);
  }

  ExprPtr ParsePostfix(ExprPtr e, size_t start) {
    ChainDepth chain{depth_, depth_};
    for (;;) {
      SkipSpace();
      if ((Cur() == '.' && At(1) != '.') || Cur() == '[') Deeper(kTooDeep, "Chains of attributes and indexes");
      if (Cur() == '.' && At(1) == '*') {
        pos_ += 2;
        e = ParseSplat(std::move(e), start, /*full=*/false);
      } else if (Cur() == '[' && Peek("[*]")) {
        pos_ += 3;
        e = ParseSplat(std::move(e), start, /*full=*/true);
      } else if (Cur() == '.' && At(1) == '.') {
        return e;  // "..." (argument expansion, for-expression grouping) belongs to the caller
      } else if (Cur() == '.' && !std::isdigit(static_cast<unsigned char>(At(1)))) {
        ++pos_;
        std::string name = ExpectIdentifier("an attribute name after \".\"");
        e = std::make_unique<GetAttrExpr>(std::move(e), name, Range(start, pos_));
      } else if (Cur() == '.') {  // legacy index: list.0
        ++pos_;
        size_t num_start = pos_;
        while (std::isdigit(static_cast<unsigned char>(Cur()))) ++pos_;
        auto key = std::make_unique<LiteralExpr>(Value::Number(NumberAt(num_start, pos_)), Range(num_start, pos_));
        e = std::make_unique<IndexExpr>(std::move(e), std::move(key), Range(start, pos_));
      } else if (Cur() == '[') {
        ++pos_;
        ExprPtr key = ParseExpr();
        Expect("]", "to close the index");
        e = std::make_unique<IndexExpr>(std::move(e), std::move(key), Range(start, pos_));
      } else {
        return e;
      }
    }
  }

  // After `[*]` (full) or `.*` (attribute-only): the following steps apply to each element.
  ExprPtr ParseSplat(ExprPtr source, size_t start, bool full) {
    size_t each_start = pos_;
    ExprPtr each = std::make_unique<SplatItemExpr>(Range(each_start, each_start));
    ChainDepth chain{depth_, depth_};
    for (;;) {
      SkipSpace();
      if (Cur() == '.' || Cur() == '[') Deeper(kTooDeep, "Chains of attributes and indexes");
      if (Cur() == '.' && At(1) != '*' && IsIdentStart(At(1))) {
        ++pos_;
        std::string name = Identifier();
        each = std::make_unique<GetAttrExpr>(std::move(each), name, Range(each_start, pos_));
      } else if (full && Cur() == '[' && !Peek("[*]")) {
        ++pos_;
        ExprPtr key = ParseExpr();
        Expect("]", "to close the index");
        each = std::make_unique<IndexExpr>(std::move(each), std::move(key), Range(each_start, pos_));
      } else {
        break;
      }
    }
    return std::make_unique<SplatExpr>(std::move(source), std::move(each), Range(start, pos_));
  }

  ExprPtr ParsePrimary() {
    SkipSpace();
    size_t start = pos_;
    char c = Cur();
    if (AtEnd()) Fail(pos_, pos_, "Invalid expression", "Expected the start of an expression, but the expression ended.");
    if (std::isdigit(static_cast<unsigned char>(c))) return ParseNumber();
    if (c == '"') {
      ++pos_;
      ExprPtr t = ParseTemplateUntil(TemplateEnd::Quote);
      return t;
    }
    if (c == '(') {
      ++pos_;
      ExprPtr inner = ParseExpr();
      Expect(")", "to close the parenthesis");
      return inner;
    }
    if (c == '[') return ParseTupleOrFor();
    if (c == '{') return ParseObjectOrFor();
    if (c == '<' && At(1) == '<') return ParseHeredoc();
    if (IsIdentStart(c)) return ParseIdentifierExpr();
    Fail(start, start + 1, "Invalid expression",
         fmt::format("Expected the start of an expression, but found \"{}\".", Snip(start)));
  }

  ExprPtr ParseNumber() {
    size_t start = pos_;
    while (std::isdigit(static_cast<unsigned char>(Cur()))) ++pos_;
    if (Cur() == '.' && std::isdigit(static_cast<unsigned char>(At(1)))) {
      ++pos_;
      while (std::isdigit(static_cast<unsigned char>(Cur()))) ++pos_;
    }
    if ((Cur() == 'e' || Cur() == 'E') &&
        (std::isdigit(static_cast<unsigned char>(At(1))) ||
         ((At(1) == '+' || At(1) == '-') && std::isdigit(static_cast<unsigned char>(At(2)))))) {
      pos_ += 2;
      while (std::isdigit(static_cast<unsigned char>(Cur()))) ++pos_;
    }
    return std::make_unique<LiteralExpr>(Value::Number(NumberAt(start, pos_)), Range(start, pos_));
  }
  // The number written at [begin, end), at Terraform's precision: 400 digits are a large
  // number, not an exception. The scanner only lets decimal literals through.
  Number NumberAt(size_t begin, size_t end) const {
    return Number::Parse(text_.substr(begin, end - begin)).value_or(Number());
  }

  ExprPtr ParseIdentifierExpr() {
    size_t start = pos_;
    std::string name = Identifier();
    if (name == "true" || name == "false") {
      return std::make_unique<LiteralExpr>(Value::Bool(name == "true"), Range(start, pos_));
    }
    if (name == "null") return std::make_unique<LiteralExpr>(Value::Null(), Range(start, pos_));
    if (Cur() == ':' && At(1) == ':') return ParseNamespacedCall(name, start);
    SkipSpace();
    if (Cur() == '(') return ParseCall(name, start);
    if (IsReserved(name)) {
      Fail(start, pos_, "Invalid expression", fmt::format("\"{}\" is a keyword and cannot start an expression here.", name));
    }
    return ParseTraversal(name, start);
  }

  // A scope traversal keeps static steps (.attr, [literal]) in its Reference; it stops at
  // the first dynamic step, which ParsePostfix then handles.
  ExprPtr ParseTraversal(const std::string& root, size_t start) {
    Reference ref;
    ref.root = root;
    for (;;) {
      size_t save = pos_;
      SkipSpace();
      size_t step_start = pos_;
      if (Cur() == '.' && IsIdentStart(At(1))) {
        ++pos_;
        std::string name = Identifier();
        ref.steps.push_back({TraversalStep::Kind::Attr, name, Value(), Range(step_start, pos_)});
        continue;
      }
      if (Cur() == '[' && !Peek("[*]")) {
        size_t bracket = pos_;
        ++pos_;
        SkipSpace();
        std::optional<Value> key = StaticKey();
        SkipSpace();
        if (key && Cur() == ']') {
          ++pos_;
          ref.steps.push_back({TraversalStep::Kind::Index, "", *key, Range(step_start, pos_)});
          continue;
        }
        pos_ = bracket;  // dynamic index: leave it to ParsePostfix
        break;
      }
      pos_ = save;
      break;
    }
    ref.range = Range(start, pos_);
    return std::make_unique<ScopeTraversalExpr>(std::move(ref), Range(start, pos_));
  }

  // A literal key inside [ ]: a number or a plain string without interpolation.
  std::optional<Value> StaticKey() {
    size_t save = pos_;
    if (std::isdigit(static_cast<unsigned char>(Cur()))) {
      while (std::isdigit(static_cast<unsigned char>(Cur()))) ++pos_;
      SkipSpace();
      if (Cur() == ']') return Value::Number(NumberAt(save, pos_));
    } else if (Cur() == '"') {
      ++pos_;
      std::string s;
      while (!AtEnd() && Cur() != '"' && Cur() != '\\' && !(Cur() == '$' && At(1) == '{') &&
             !(Cur() == '%' && At(1) == '{') && Cur() != '\n') {
        s += Cur();
        ++pos_;
      }
      if (Cur() == '"') {
        ++pos_;
        SkipSpace();
        if (Cur() == ']') return Value::String(s);
      }
    }
    pos_ = save;
    return std::nullopt;
  }

  // Terraform 1.8's namespaced function names: core::NAME is the standard function NAME;
  // provider::P::NAME would be a provider's function, which Strata's providers do not offer.
  ExprPtr ParseNamespacedCall(const std::string& first, size_t start) {
    std::vector<std::string> parts{first};
    while (Cur() == ':' && At(1) == ':') {
      pos_ += 2;
      if (!(std::isalpha(static_cast<unsigned char>(Cur())) || Cur() == '_')) {
        Fail(start, pos_, "Invalid function name", "A function name after \"::\" must be an identifier, as in core::length(x).");
      }
      parts.push_back(Identifier());
    }
    size_t name_end = pos_;
    std::string full = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) full += "::" + parts[i];
    if (parts[0] != "core" || parts.size() != 2) {
      Fail(start, name_end, "Unsupported function namespace",
           fmt::format("\"{}\" is not a function Strata has: only the standard functions, optionally written "
                       "core::NAME, exist (providers do not offer functions).",
                       full));
    }
    SkipSpace();
    if (Cur() != '(') Fail(start, name_end, "Invalid expression", fmt::format("\"{}\" must be called, as in {}(...).", full, full));
    return ParseCall(parts[1], start, name_end);
  }

  ExprPtr ParseCall(const std::string& name, size_t start, size_t name_end = std::string::npos) {
    SourceRange name_range = Range(start, name_end == std::string::npos ? start + name.size() : name_end);
    Expect("(", "after the function name");
    std::vector<ExprPtr> args;
    bool expand = false;
    while (!Accept(")")) {
      args.push_back(ParseExpr());
      if (Accept("...")) {
        expand = true;
        Expect(")", "after the expanded final argument");
        break;
      }
      if (!Accept(",")) {
        Expect(")", fmt::format("to close the call to {}()", name));
        break;
      }
    }
    return std::make_unique<FunctionCallExpr>(name, std::move(args), expand, name_range, Range(start, pos_));
  }

  ExprPtr ParseTupleOrFor() {
    size_t start = pos_;
    ++pos_;  // [
    if (PeekKeyword("for")) return ParseFor(start, /*object=*/false);
    std::vector<ExprPtr> items;
    while (!Accept("]")) {
      items.push_back(ParseExpr());
      if (!Accept(",")) {
        Expect("]", "to close the list");
        break;
      }
    }
    return std::make_unique<TupleExpr>(std::move(items), Range(start, pos_));
  }

  ExprPtr ParseObjectOrFor() {
    size_t start = pos_;
    ++pos_;  // {
    if (PeekKeyword("for")) return ParseFor(start, /*object=*/true);
    std::vector<ObjectExpr::Item> items;
    while (!Accept("}")) {
      ExprPtr key = ParseObjectKey();
      if (!Accept("=") && !Accept(":")) {
        Expect("=", "between an object key and its value");
      }
      ExprPtr value = ParseExpr();
      items.push_back({std::move(key), std::move(value)});
      SkipSpace();
      if (Accept(",")) continue;
      if (Peek("}")) continue;
      // Newline-separated items are allowed: the previous SkipSpace consumed the newline.
      if (pos_ > 0 && text_.substr(0, pos_).find_last_not_of(" \t\r") != std::string_view::npos &&
          text_[text_.substr(0, pos_).find_last_not_of(" \t\r")] == '\n') {
        continue;
      }
      Expect("}", "to close the object");
      break;
    }
    return std::make_unique<ObjectExpr>(std::move(items), Range(start, pos_));
  }

  // An object key: a bare identifier is a literal string; anything else is an expression.
  ExprPtr ParseObjectKey() {
    SkipSpace();
    size_t start = pos_;
    if (IsIdentStart(Cur())) {
      std::string id = Identifier();
      SkipSpace();
      if (Cur() == '=' || Cur() == ':') {
        if (!(Cur() == '=' && At(1) == '=')) return std::make_unique<LiteralExpr>(Value::String(id), Range(start, pos_));
      }
      pos_ = start;
    }
    return ParseExpr();
  }

  ExprPtr ParseFor(size_t start, bool object) {
    Accept("for");
    ForExpr::Parts p;
    p.object = object;
    std::string first = ExpectIdentifier("a variable name after \"for\"");
    if (Accept(",")) {
      p.key_var = first;
      p.value_var = ExpectIdentifier("a second variable name");
    } else {
      p.value_var = first;
    }
    SkipSpace();
    if (!PeekKeyword("in")) Fail(pos_, pos_ + 1, "Invalid for expression", "Expected \"in\" after the for variables.");
    pos_ += 2;
    p.collection = ParseExpr();
    Expect(":", "after the collection of a for expression");
    if (object) {
      p.key = ParseExpr();
      Expect("=>", "between the key and the value of an object for expression");
    }
    p.value = ParseExpr();
    if (object && Accept("...")) p.grouping = true;
    SkipSpace();
    if (PeekKeyword("if")) {
      pos_ += 2;
      p.condition = ParseExpr();
    }
    Expect(object ? "}" : "]", "to close the for expression");
    return std::make_unique<ForExpr>(std::move(p), Range(start, pos_));
  }

  // <<EOT / <<-EOT heredocs: a template up to a line holding only the marker.
  ExprPtr ParseHeredoc() {
    size_t start = pos_;
    pos_ += 2;
    bool indented = Cur() == '-';
    if (indented) ++pos_;
    std::string marker = Identifier();
    if (marker.empty() || Cur() != '\n') {
      Fail(start, pos_, "Invalid heredoc", "A heredoc starts with <<MARKER or <<-MARKER followed by a newline.");
    }
    ++pos_;
    size_t body_start = pos_;
    size_t line = pos_;
    for (;;) {
      if (line >= text_.size()) Fail(start, pos_, "Unterminated heredoc", fmt::format("No line holding only \"{}\" ends this heredoc.", marker));
      size_t eol = text_.find('\n', line);
      if (eol == std::string_view::npos) eol = text_.size();
      std::string_view l = text_.substr(line, eol - line);
      size_t first = l.find_first_not_of(" \t");
      if (first != std::string_view::npos && l.substr(first) == marker) {
        std::string body(text_.substr(body_start, line - body_start));
        if (indented) body = StripCommonIndent(body);
        pos_ = eol;
        size_t saved = pos_;
        Parser inner(body, SourceMapping{mapping_.file, PosAt(body_start).line, mapping_.continuation_col, mapping_.continuation_col});
        inner.depth_ = depth_;  // a heredoc's template is as deep as the heredoc
        ExprPtr t = inner.ParseWholeTemplate();
        pos_ = saved;
        return t;
      }
      line = eol + 1;
    }
  }
  static std::string StripCommonIndent(const std::string& body) {
    size_t common = std::string::npos;
    size_t i = 0;
    while (i < body.size()) {
      size_t eol = body.find('\n', i);
      if (eol == std::string::npos) eol = body.size();
      std::string_view l(body.data() + i, eol - i);
      size_t first = l.find_first_not_of(" \t");
      if (first != std::string_view::npos) common = std::min(common, first);
      i = eol + 1;
    }
    if (common == std::string::npos || common == 0) return body;
    std::string out;
    i = 0;
    while (i < body.size()) {
      size_t eol = body.find('\n', i);
      if (eol == std::string::npos) eol = body.size();
      std::string_view l(body.data() + i, eol - i);
      out += l.size() >= common ? std::string(l.substr(common)) : std::string();
      if (eol < body.size()) out += '\n';
      i = eol + 1;
    }
    return out;
  }

  // ---- templates ----------------------------------------------------------------------
  // Parses template parts until the end (text, closing quote, or a %{ directive keyword
  // that belongs to an enclosing if/for). In quoted strings, backslash escapes apply.
  ExprPtr ParseTemplateUntil(TemplateEnd end) {
    size_t start = pos_;
    std::vector<ExprPtr> parts;
    std::string literal;
    size_t literal_start = pos_;
    if (end == TemplateEnd::Quote) ++quoted_depth_;
    bool quoted = quoted_depth_ > 0;
    auto flush = [&] {
      if (!literal.empty()) {
        parts.push_back(std::make_unique<LiteralExpr>(Value::String(literal), Range(literal_start, pos_)));
      }
      literal.clear();
    };
    for (;;) {
      if (strip_leading_) {  // a preceding "~}" eats the whitespace that follows it
        strip_leading_ = false;
        while (!AtEnd() && std::isspace(static_cast<unsigned char>(Cur()))) ++pos_;
        literal_start = pos_;
      }
      if (AtEnd()) {
        if (end == TemplateEnd::Quote) Fail(start - 1, pos_, "Unterminated string", "A string literal has no closing quote.");
        break;
      }
      char c = Cur();
      if (end == TemplateEnd::Quote && c == '"') {
        break;
      }
      if (quoted && c == '\n') Fail(pos_, pos_ + 1, "Invalid string", "A quoted string cannot span lines; use a heredoc or \\n.");
      if ((c == '$' || c == '%') && At(1) == c && At(2) == '{') {  // $${ and %%{ escapes
        literal += c;
        literal += '{';
        pos_ += 3;
        continue;
      }
      if (c == '$' && At(1) == '{') {
        if (At(2) == '~') TrimTrailingSpace(literal);
        flush();
        size_t interp_start = pos_;
        pos_ += 2;
        if (Cur() == '~') ++pos_;
        ExprPtr inner = ParseExpr();
        SkipSpace();
        if (Cur() == '~') {
          ++pos_;
          strip_leading_ = true;
        }
        if (!Accept("}")) {
          Fail(pos_, pos_ + 1, "Invalid template interpolation",
               fmt::format("Expected \"}}\" to close the interpolation that starts at column {}.", PosAt(interp_start).column));
        }
        parts.push_back(std::move(inner));
        literal_start = pos_;
        continue;
      }
      if (c == '%' && At(1) == '{') {
        if (At(2) == '~') TrimTrailingSpace(literal);
        size_t directive_start = pos_;
        size_t save = pos_;
        pos_ += 2;
        Accept("~");
        SkipSpace();
        if (PeekKeyword("else") || PeekKeyword("endif") || PeekKeyword("endfor")) {
          if (end != TemplateEnd::Directive) {
            Fail(directive_start, pos_ + 4, "Unexpected template directive",
                 "This %{ else/endif/endfor } has no matching %{ if } or %{ for }.");
          }
          pos_ = save;
          break;
        }
        flush();
        if (PeekKeyword("if")) {
          parts.push_back(ParseTemplateIf(directive_start));
        } else if (PeekKeyword("for")) {
          parts.push_back(ParseTemplateFor(directive_start));
        } else {
          Fail(directive_start, pos_ + 1, "Invalid template directive", "Expected %{ if ... } or %{ for ... }.");
        }
        literal_start = pos_;
        continue;
      }
      if (quoted && c == '\\') {
        literal += ParseEscape();
        continue;
      }
      literal += c;
      ++pos_;
    }
    flush();
    size_t end_pos = pos_;
    if (end == TemplateEnd::Quote) {
      ++pos_;  // closing quote
      --quoted_depth_;
    }
    // A template of exactly one interpolation yields the raw value (not for quoted strings
    // with surrounding text; "${x}" in a quoted string also unwraps, as HCL does).
    if (parts.size() == 1 && !parts[0]->AsLiteral() && !IsDirective(*parts[0])) return std::move(parts[0]);
    if (parts.empty()) return std::make_unique<LiteralExpr>(Value::String(""), Range(start, end_pos));
    if (parts.size() == 1 && parts[0]->AsLiteral()) return std::move(parts[0]);
    return std::make_unique<TemplateExpr>(std::move(parts), Range(start, end_pos));
  }
  static bool IsDirective(const Expr& e) {
    return dynamic_cast<const TemplateIfExpr*>(&e) || dynamic_cast<const TemplateForExpr*>(&e);
  }

  static void TrimTrailingSpace(std::string& text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  }

  void ExpectDirectiveClose(std::string_view keyword) {
    SkipSpace();
    if (Cur() == '~') {
      ++pos_;
      strip_leading_ = true;
    }
    if (!Accept("}")) Fail(pos_, pos_ + 1, "Invalid template directive", fmt::format("Expected \"}}\" to close %{{ {} }}.", keyword));
  }
  // Consumes "%{ keyword" and expects it to be `keyword`.
  void ExpectDirective(std::string_view keyword, size_t opened_at) {
    if (!(Cur() == '%' && At(1) == '{')) {
      Fail(opened_at, opened_at + 2, "Unterminated template directive",
           fmt::format("This directive needs a matching %{{ {} }}.", keyword));
    }
    pos_ += 2;
    Accept("~");
    SkipSpace();
    if (!PeekKeyword(keyword)) Fail(pos_, pos_ + 1, "Invalid template directive", fmt::format("Expected %{{ {} }}.", keyword));
    pos_ += keyword.size();
    ExpectDirectiveClose(keyword);
  }

  ExprPtr ParseTemplateIf(size_t start) {
    Deeper("Template too deeply nested", "Template directives", /*room=*/1);
    pos_ += 2;  // "if"
    ExprPtr cond = ParseExpr();
    ExpectDirectiveClose("if");
    ExprPtr then_part = ParseTemplateUntil(TemplateEnd::Directive);
    ExprPtr else_part;
    size_t save = pos_;
    if (Cur() == '%' && At(1) == '{') {
      pos_ += 2;
      Accept("~");
      SkipSpace();
      if (PeekKeyword("else")) {
        pos_ += 4;
        ExpectDirectiveClose("else");
        else_part = ParseTemplateUntil(TemplateEnd::Directive);
      } else {
        pos_ = save;
      }
    }
    ExpectDirective("endif", start);
    if (!else_part) else_part = std::make_unique<LiteralExpr>(Value::String(""), Range(pos_, pos_));
    --depth_;
    return std::make_unique<TemplateIfExpr>(std::move(cond), std::move(then_part), std::move(else_part), Range(start, pos_));
  }

  ExprPtr ParseTemplateFor(size_t start) {
    Deeper("Template too deeply nested", "Template directives", /*room=*/1);
    pos_ += 3;  // "for"
    std::string first = ExpectIdentifier("a variable name after \"for\"");
    std::string key_var, value_var = first;
    if (Accept(",")) {
      key_var = first;
      value_var = ExpectIdentifier("a second variable name");
    }
    SkipSpace();
    if (!PeekKeyword("in")) Fail(pos_, pos_ + 1, "Invalid template directive", "Expected \"in\" after the for variables.");
    pos_ += 2;
    ExprPtr coll = ParseExpr();
    ExpectDirectiveClose("for");
    ExprPtr body = ParseTemplateUntil(TemplateEnd::Directive);
    ExpectDirective("endfor", start);
    --depth_;
    return std::make_unique<TemplateForExpr>(key_var, value_var, std::move(coll), std::move(body), Range(start, pos_));
  }

  std::string ParseEscape() {
    size_t start = pos_;
    ++pos_;  // backslash
    char c = Cur();
    ++pos_;
    switch (c) {
      case 'n': return "\n";
      case 'r': return "\r";
      case 't': return "\t";
      case '"': return "\"";
      case '\\': return "\\";
      case 'u':
      case 'U': {
        size_t digits = c == 'u' ? 4 : 8;
        std::string hex(text_.substr(pos_, digits));
        if (hex.size() != digits || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
          Fail(start, pos_, "Invalid escape sequence", fmt::format("\\{} must be followed by {} hexadecimal digits.", c, digits));
        }
        pos_ += digits;
        char32_t cp = static_cast<char32_t>(std::stoul(hex, nullptr, 16));
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          Fail(start, pos_, "Invalid escape sequence", fmt::format("\\{}{} is not a Unicode code point.", c, hex));
        }
        return functions::EncodeUtf8(std::u32string(1, cp));
      }
      default:
        Fail(start, pos_, "Invalid escape sequence",
             fmt::format("The escape \\{} is not valid. Use \\n, \\r, \\t, \\\", \\\\, \\uNNNN or \\UNNNNNNNN.", c));
    }
  }
  std::string_view text_;
  SourceMapping mapping_;
  std::vector<size_t> line_starts_;
  size_t pos_ = 0;
  int depth_ = 0;
  int quoted_depth_ = 0;
  bool strip_leading_ = false;
};

template <typename F>
ExprPtr Guard(F&& parse, Diagnostics& diags) {
  try {
    return parse();
  } catch (const ParseError& e) {
    Diagnostic d;
    d.summary = e.summary;
    d.detail = e.detail;
    d.subject = e.range;
    diags.Add(std::move(d));
    return nullptr;
  }
}

}  // namespace

ExprPtr ParseExpression(std::string_view text, const SourceMapping& mapping, Diagnostics& diags) {
  return Guard([&] { return Parser(text, mapping).ParseWholeExpression(); }, diags);
}

ExprPtr ParseTemplate(std::string_view text, const SourceMapping& mapping, Diagnostics& diags) {
  return Guard([&] { return Parser(text, mapping).ParseWholeTemplate(); }, diags);
}

bool HasTemplateSyntax(std::string_view text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if ((text[i] == '$' || text[i] == '%') && text[i + 1] == '{') return true;
  }
  return false;
}

}  // namespace strata
