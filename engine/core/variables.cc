#include "engine/core/variables.h"

#include <fmt/format.h>

#include "engine/config/yaml_doc.h"
#include "engine/expr/eval.h"
#include "engine/expr/parser.h"

namespace strata {
namespace {

Value YamlToValue(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return Value::Null();
  if (node.IsSequence()) {
    ValueList items;
    for (const auto& item : node) items.push_back(YamlToValue(item));
    return Value::Tuple(std::move(items));
  }
  if (node.IsMap()) {
    ValueMap items;
    for (const auto& kv : node) items.emplace(kv.first.Scalar(), YamlToValue(kv.second));
    return Value::Object(std::move(items));
  }
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") return Value::String(s);
  if (s == "true" || s == "false") return Value::Bool(s == "true");
  char* end = nullptr;
  double n = std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size()) return Value::Number(n);
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
  for (const auto& path : inputs.var_files) {
    std::optional<YamlDocument> doc = ReadYamlDocument(path, sources, diags);
    if (!doc) continue;
    if (!doc->root.IsMap()) {
      if (!doc->root.IsNull()) diags.Error("Invalid variables file", "A -var-file holds a mapping of variable names to values.", NodeRange(doc->file, doc->root));
      continue;
    }
    for (const auto& kv : doc->root) {
      std::string name = kv.first.Scalar();
      if (!decl(name)) {
        std::vector<std::string> names;
        for (const auto& [n, v] : root.variables) names.push_back(n);
        diags.Warning("Value for undeclared variable",
                      fmt::format("The file sets \"{}\", but the stage declares no such variable; it is ignored.{}", name,
                                  DidYouMean(name, names)),
                      NodeRange(doc->file, kv.first));
        continue;
      }
      out[name] = {YamlToValue(kv.second), "-var-file " + path, NodeRange(doc->file, kv.second)};
    }
  }
  for (const auto& [name, raw] : inputs.cli_vars) {
    const VariableConfig* d = decl(name);
    if (!d) {
      std::vector<std::string> names;
      for (const auto& [n, v] : root.variables) names.push_back(n);
      diags.Error("Value for undeclared variable",
                  fmt::format("-var sets \"{}\", but the stage declares no variable of that name.{} Declare it under "
                              "variables: in a module file, or remove the flag.",
                              name, DidYouMean(name, names)));
      continue;
    }
    out[name] = {RawVariableValue(d, raw, "-var " + name, diags), "-var " + name, {}};
  }
  return out;
}

}  // namespace strata
