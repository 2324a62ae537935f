#include "engine/expr/function.h"

#include <fmt/format.h>

namespace strata {

const FunctionTable& FunctionTable::Standard() {
  static const FunctionTable table = [] {
    FunctionTable t;
    RegisterCollectionFunctions(t);
    RegisterStringFunctions(t);
    RegisterEncodingFunctions(t);
    RegisterHashFunctions(t);
    RegisterNetworkFunctions(t);
    RegisterFileFunctions(t);
    RegisterNumericFunctions(t);
    RegisterTypeFunctions(t);
    RegisterTimeFunctions(t);
    RegisterCryptoFunctions(t);
    RegisterKubernetesFunctions(t);
    return t;
  }();
  return table;
}

void FunctionTable::Register(FunctionSpec spec) {
  std::string name = spec.name;
  functions_[name] = std::move(spec);
}

const FunctionSpec* FunctionTable::Find(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

std::vector<std::string> FunctionTable::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, spec] : functions_) names.push_back(name);
  return names;
}

Value CallFunction(const FunctionTable& table, const std::string& name, const std::vector<Value>& args,
                   const FunctionContext& ctx) {
  const FunctionSpec* spec = table.Find(name);
  if (!spec) throw FunctionError{fmt::format("there is no function named \"{}\"", name)};
  int n = static_cast<int>(args.size());
  if (n < spec->min_args || (spec->max_args >= 0 && n > spec->max_args)) {
    std::string expected = spec->max_args < 0 ? fmt::format("at least {}", spec->min_args)
                           : spec->min_args == spec->max_args ? fmt::format("{}", spec->min_args)
                                                              : fmt::format("{} to {}", spec->min_args, spec->max_args);
    throw FunctionError{fmt::format("{}() takes {} argument{}, got {}", name, expected,
                                    expected == "1" ? "" : "s", n)};
  }
  if (spec->handles_marks) return spec->impl(args, ctx);

  bool sensitive = false;
  bool known = true;
  for (const auto& a : args) {
    sensitive = sensitive || a.ContainsSensitive();
    known = known && a.IsWhollyKnown();
  }
  if (!known && !spec->accepts_unknown) return Value::Unknown().MarkSensitive(sensitive);
  if (!sensitive) return spec->impl(args, ctx);
  std::vector<Value> plain;
  plain.reserve(args.size());
  for (const auto& a : args) plain.push_back(a.DeepUnmark());
  return spec->impl(plain, ctx).MarkSensitive();
}

}  // namespace strata
