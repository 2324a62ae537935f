#include "engine/core/provider_blocks.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/expr/eval.h"
#include "engine/expr/nodes.h"

namespace strata {

std::string ProviderNameOfKey(const std::string& key) { return key.substr(0, key.find('.')); }

std::string ProviderAliasSuffix(const std::string& key) {
  size_t dot = key.find('.');
  return dot == std::string::npos ? "" : key.substr(dot);
}

void CheckProviderBlock(const ProviderConfig& block, const SchemaSource& schemas, Diagnostics& diags) {
  std::string name = ProviderNameOfKey(block.name);
  std::vector<std::string> known = schemas.ProviderNames();
  if (!known.empty() && std::find(known.begin(), known.end(), name) == known.end()) {
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    diags.Error("Unknown provider",
                fmt::format("There is no provider named \"{}\"; Strata has {}.{}", name, list, DidYouMean(name, known)),
                block.range);
    return;
  }
  const ResourceSchema* settings = schemas.ProviderSettings(name);
  const auto* object = dynamic_cast<const ObjectExpr*>(block.settings.get());
  if (!settings || !object) return;
  std::vector<std::string> names;
  for (const auto& [attribute, schema] : settings->attributes) names.push_back(attribute);
  for (const auto& item : object->items()) {
    const Value* key = item.key->AsLiteral();
    if (!key || !key->IsString() || settings->attributes.count(key->AsString())) continue;
    diags.Error("Unsupported argument",
                fmt::format("The {} provider has no setting named \"{}\".{}", name, key->AsString(),
                            DidYouMean(key->AsString(), names)),
                item.key->range());
  }
}

}  // namespace strata
