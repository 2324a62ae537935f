#include "engine/core/generated_config.h"

#include <fmt/format.h>

#include "engine/value/json.h"

namespace strata {
namespace {

// A value as a YAML flow scalar or collection: JSON is YAML, and "${" in a string is escaped
// so that the loader reads it as the text it is, not as an expression.
std::string GeneratedYamlValue(const Value& v) {
  std::string text = ValueToJson(v.DeepUnmark()).dump();
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((text[i] == '$' || text[i] == '%') && i + 1 < text.size() && text[i + 1] == '{') out += text[i];
    out += text[i];
  }
  return out;
}

}  // namespace

void GeneratedConfig::Add(const ImportTarget& target, const ResourceSchema& schema, const Value& state) {
  std::string entry = fmt::format("  # __generated__ by Strata from \"{}\"\n  {}:\n    type: {}\n", target.id,
                                  target.addr.resource.name, target.addr.resource.type);
  std::string properties;
  for (const auto& [name, attribute] : schema.attributes) {
    if (!attribute.required && !attribute.optional) continue;  // computed only: the provider's
    Value v = state.IsMapping() && state.AsMap().count(name) ? state.AsMap().at(name) : Value::Null();
    if (attribute.sensitive || v.ContainsSensitive()) {
      properties += fmt::format("      {}: null  # sensitive: set it from a sensitive variable\n", name);
      continue;
    }
    properties += fmt::format("      {}: {}\n", name, v.IsWhollyKnown() ? GeneratedYamlValue(v) : "null");
  }
  if (!properties.empty()) entry += "    properties:\n" + properties;
  resources_.push_back(std::move(entry));
}

std::string GeneratedConfig::Text() const {
  if (resources_.empty()) return "";
  std::string out =
      "# __generated__ by Strata\n"
      "# Review these resources and move them into your module files.\n"
      "resources:\n";
  for (size_t i = 0; i < resources_.size(); ++i) out += (i ? "\n" : "") + resources_[i];
  return out;
}

}  // namespace strata
