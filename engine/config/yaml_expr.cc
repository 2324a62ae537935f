#include "engine/config/yaml_expr.h"

#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "engine/expr/nodes.h"
#include "engine/expr/parser.h"
#include "engine/value/yaml_scalar.h"

namespace strata {
namespace {

bool IsPlain(const YamlNode& node) { return node.Tag() == "?" || node.Tag().empty(); }

// A plain scalar's typed value under the YAML 1.2 core schema.
Value PlainScalarValue(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return Value::Bool(true);
  if (s == "false" || s == "False" || s == "FALSE") return Value::Bool(false);
  if (s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty()) return Value::Null();
  if (IsYamlDecimal(s)) return Value::Number(Number::Parse(s).value_or(Number()));
  return Value::String(s);
}

// Where the scalar's text starts in the file, so that expression positions are exact.
SourceMapping ScalarMapping(const YamlFile& file, const YamlNode& node) {
  const YamlMark mark = node.Mark();
  SourceMapping m{file.path, mark.line + 1, mark.column + 1, mark.column + 1};
  if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= file.text.size()) return m;
  char c = file.text[mark.pos];
  if (c == '"' || c == '\'') {
    m.first_col += 1;
    m.continuation_col = m.first_col;
  } else if (c == '|' || c == '>') {
    // Block scalar: content starts on the next line, at the block's indentation.
    size_t nl = file.text.find('\n', mark.pos);
    if (nl != std::string_view::npos) {
      size_t first = file.text.find_first_not_of(' ', nl + 1);
      int indent = first == std::string_view::npos ? 0 : static_cast<int>(first - nl - 1);
      m.first_line = mark.line + 2;
      m.first_col = indent + 1;
      m.continuation_col = indent + 1;
    }
  }
  return m;
}

}  // namespace

SourceRange NodeRange(const YamlFile& file, const YamlNode& node) {
  const YamlMark mark = node.Mark();
  SourceRange r;
  r.file = file.path;
  r.start = {mark.line + 1, mark.column + 1, mark.pos};
  int length = node.IsScalar() ? static_cast<int>(node.Scalar().size()) : 1;
  if (node.IsScalar() && !IsPlain(node)) length += 2;
  r.end = {mark.line + 1, mark.column + 1 + std::max(1, length), mark.pos + length};
  return r;
}

namespace {

// Owned, so that a tuple or object node holds its children themselves (the schema check
// looks into nested blocks by their node classes), not a forwarder to a shared child.
ExprPtr NodeToOwnedExpr(const YamlFile& file, const YamlNode& node, Diagnostics& diags) {
  SourceRange range = NodeRange(file, node);
  if (!node.IsDefined() || node.IsNull()) {
    // An explicit null, or a key with no value.
    if (node.IsScalar() && !IsPlain(node)) return std::make_unique<LiteralExpr>(Value::String(node.Scalar()), range);
    return std::make_unique<LiteralExpr>(Value::Null(), range);
  }
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    if (HasTemplateSyntax(s)) {
      // A block scalar ends with a newline; "${x}\n" still means the raw value of x.
      std::string_view text(s);
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
      ExprPtr e = ParseTemplate(text, ScalarMapping(file, node), diags);
      if (!e) return std::make_unique<LiteralExpr>(Value::Unknown(), range);
      return e;
    }
    return std::make_unique<LiteralExpr>(IsPlain(node) ? PlainScalarValue(s) : Value::String(s), range);
  }
  if (node.IsSequence()) {
    std::vector<ExprPtr> items;
    for (const auto& item : node) items.push_back(NodeToOwnedExpr(file, item, diags));
    return std::make_unique<TupleExpr>(std::move(items), range);
  }
  // Map: keys are literal strings; duplicate keys are an error.
  std::vector<ObjectExpr::Item> items;
  std::map<std::string, SourceRange> seen;
  for (const auto& kv : node) {
    std::optional<std::string> key = MappingKey(file, kv.first, seen, diags);
    if (!key) continue;
    ExprPtr value = NodeToOwnedExpr(file, kv.second, diags);
    // A key may be a template too: "k8s.io/cluster-autoscaler/${var.cluster_name}: owned".
    ExprPtr key_expr;
    if (HasTemplateSyntax(*key)) key_expr = ParseTemplate(*key, ScalarMapping(file, kv.first), diags);
    if (!key_expr) key_expr = std::make_unique<LiteralExpr>(Value::String(*key), seen.at(*key));
    items.push_back({std::move(key_expr), std::move(value)});
  }
  return std::make_unique<ObjectExpr>(std::move(items), range);
}

}  // namespace

ExprRef NodeToExpr(const YamlFile& file, const YamlNode& node, Diagnostics& diags) {
  return NodeToOwnedExpr(file, node, diags);
}

std::optional<std::string> MappingKey(const YamlFile& file, const YamlNode& key,
                                      std::map<std::string, SourceRange>& seen, Diagnostics& diags) {
  SourceRange range = NodeRange(file, key);
  if (!key.IsScalar()) {
    diags.Error("Invalid key", "A mapping key must be a plain string.", range);
    return std::nullopt;
  }
  auto [it, inserted] = seen.emplace(key.Scalar(), range);
  if (!inserted) {
    diags.Error("Duplicate key", fmt::format("The key \"{}\" is already set at {}.", key.Scalar(), it->second.ToString()),
                range);
    return std::nullopt;
  }
  return key.Scalar();
}

std::optional<std::string> ScalarString(const YamlFile& file, const YamlNode& node, const std::string& what,
                                        Diagnostics& diags) {
  if (!node.IsScalar()) {
    diags.Error("Invalid value", fmt::format("{} must be a string.", what), NodeRange(file, node));
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<bool> ScalarBool(const YamlFile& file, const YamlNode& node, const std::string& what, Diagnostics& diags) {
  if (node.IsScalar() && IsPlain(node)) {
    Value v = PlainScalarValue(node.Scalar());
    if (v.IsBool()) return v.AsBool();
  }
  diags.Error("Invalid value", fmt::format("{} must be true or false.", what), NodeRange(file, node));
  return std::nullopt;
}

}  // namespace strata
