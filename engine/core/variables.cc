#include "engine/core/variables.h"

#include <cstdlib>

#include <fmt/format.h>

#include "engine/config/yaml_doc.h"
#include "engine/expr/eval.h"
#include "engine/expr/parser.h"
#include "engine/value/yaml_scalar.h"

namespace strata {
namespace {

// A -var-file value: YAML as written, without ${...} evaluation (a file holds values, not
// expressions). Keys must be unique in each mapping, as in module files. ReadYamlDocument has
// held the document to the nesting and alias bounds, so the recursion is safe.
Value YamlToValue(const YamlFile& file, const YamlNode& node, Diagnostics& diags) {
  if (!node.IsDefined() || node.IsNull()) return Value::Null();
  if (node.IsSequence()) {
    ValueList items;
    for (const auto& item : node) items.push_back(YamlToValue(file, item, diags));
    return Value::Tuple(std::move(items));
  }
  if (node.IsMap()) {
    ValueMap items;
    std::map<std::string, SourceRange> seen;
    for (const auto& kv : node) {
      if (auto key = MappingKey(file, kv.first, seen, diags)) items.emplace(*key, YamlToValue(file, kv.second, diags));
    }
    return Value::Object(std::move(items));
  }
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") return Value::String(s);
  if (s == "true" || s == "false") return Value::Bool(s == "true");
  if (IsYamlDecimal(s)) return Value::Number(Number::Parse(s).value_or(Number()));
  return Value::String(s);
}

// A raw string from -var or the environment: primitives stay strings (the type converts
// them); structured types are parsed as a literal expression, as Terraform does.
Value RawVariableValue(const VariableConfig* decl, const std::string& raw, const std::string& source, Diagnostics& diags) {
  bool structured = decl && decl->type && decl->type->kind() != Type::Kind::String &&
                    decl->type->kind() != Type::Kind::Number && decl->type->kind() != Type::Kind::Bool &&
                    decl->type->kind() != Type::Kind::Any;
  if (!structured) return Value::String(raw);
  Diagnostics local;
  ExprPtr e = ParseExpression(raw, SourceMapping{source, 1, 1, 1}, local);
  if (e) {
    MapScope scope;
    EvalContext ctx(scope, FunctionTable::Standard(), {});
    Value v = Evaluate(*e, ctx, local);
    if (!local.HasErrors()) return v;
  }
  diags.Error("Invalid value for variable",
              fmt::format("The value given for \"{}\" by {} is not a valid {} literal: {}", decl->name, source,
                          decl->type->ToString(), local.empty() ? "" : local.items()[0].summary));
  return Value::Unknown();
}

std::vector<std::string> DeclaredNames(const ModuleConfig& root) {
  std::vector<std::string> names;
  for (const auto& [n, v] : root.variables) names.push_back(n);
  return names;
}

// The values of one variables file (a -var-file, or the environment's), each set over what
// came before it. `shared`: the environment's file serves every stage, so a name this stage
// does not declare is another stage's, not worth a warning.
void CollectVariablesFile(const ModuleConfig& root, const std::string& path, const std::string& source, bool shared,
                          SourceRegistry& sources, std::map<std::string, RootVariableValue>& out, Diagnostics& diags) {
  std::optional<YamlDocument> doc = ReadYamlDocument(path, sources, diags);
  if (!doc) return;
  if (!doc->root.IsMap()) {
    if (!doc->root.IsNull()) {
      diags.Error("Invalid variables file",
                  shared ? "An environment's variables file holds a mapping of variable names to values."
                         : "A -var-file holds a mapping of variable names to values.",
                  NodeRange(doc->file, doc->root));
    }
    return;
  }
  std::map<std::string, SourceRange> seen;
  for (const auto& kv : doc->root) {
    std::optional<std::string> key = MappingKey(doc->file, kv.first, seen, diags);
    if (!key) continue;
    const std::string& name = *key;
    if (!root.variables.count(name) && shared) continue;
    if (!root.variables.count(name)) {
      diags.Warning("Value for undeclared variable",
                    fmt::format("The file sets \"{}\", but the stage declares no such variable; it is ignored.{}", name,
                                DidYouMean(name, DeclaredNames(root))),
                    NodeRange(doc->file, kv.first));
      continue;
    }
    out[name] = {YamlToValue(doc->file, kv.second, diags), source, NodeRange(doc->file, kv.second)};
  }
}

}  // namespace

bool SplitVarFlag(const std::string& flag, std::string& name, std::string& value) {
  auto eq = flag.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  name = flag.substr(0, eq);
  value = flag.substr(eq + 1);
  return true;
}

std::map<std::string, std::string> StrataVarsFromEnvironment(const char* const* envp) {
  std::map<std::string, std::string> out;
  const std::string prefix = "STRATA_VAR_";
  for (; envp && *envp; ++envp) {
    std::string entry = *envp;
    if (entry.rfind(prefix, 0) != 0) continue;
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    out[entry.substr(prefix.size(), eq - prefix.size())] = entry.substr(eq + 1);
  }
  return out;
}

std::map<std::string, RootVariableValue> CollectRootVariables(const ModuleConfig& root, const VariableInputs& inputs,
                                                              SourceRegistry& sources, Diagnostics& diags) {
  std::map<std::string, RootVariableValue> out;
  auto decl = [&](const std::string& name) -> const VariableConfig* {
    auto it = root.variables.find(name);
    return it == root.variables.end() ? nullptr : &it->second;
  };
  for (const auto& [name, raw] : inputs.env) {
    if (const VariableConfig* d = decl(name)) {
      std::string source = "environment variable STRATA_VAR_" + name;
      out[name] = {RawVariableValue(d, raw, source, diags), source, {}};
    }
  }
  if (!inputs.environment_file.empty()) {
    CollectVariablesFile(root, inputs.environment_file, "environment file " + inputs.environment_file, true, sources, out,
                         diags);
  }
  for (const VariableArgument& arg : inputs.arguments) {
    if (arg.kind == VariableArgument::Kind::File) {
      CollectVariablesFile(root, arg.value, "-var-file " + arg.value, false, sources, out, diags);
      continue;
    }
    const VariableConfig* d = decl(arg.name);
    if (!d) {
      diags.Error("Value for undeclared variable",
                  fmt::format("-var sets \"{}\", but the stage declares no variable of that name.{} Declare it under "
                              "variables: in a module file, or remove the flag.",
                              arg.name, DidYouMean(arg.name, DeclaredNames(root))));
      continue;
    }
    out[arg.name] = {RawVariableValue(d, arg.value, "-var " + arg.name, diags), "-var " + arg.name, {}};
  }
  return out;
}

}  // namespace strata
