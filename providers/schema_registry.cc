#include "providers/schema_registry.h"

namespace strata {

void SchemaRegistry::Add(ResourceSchema schema) {
  auto& table = schema.mode == ResourceMode::Data ? data_ : managed_;
  std::string type = schema.type;
  table[type] = std::move(schema);
}

const ResourceSchema* SchemaRegistry::Find(ResourceMode mode, const std::string& type) const {
  const auto& table = mode == ResourceMode::Data ? data_ : managed_;
  auto it = table.find(type);
  return it == table.end() ? nullptr : &it->second;
}

std::vector<std::string> SchemaRegistry::TypeNames(ResourceMode mode) const {
  const auto& table = mode == ResourceMode::Data ? data_ : managed_;
  std::vector<std::string> names;
  for (const auto& [name, schema] : table) names.push_back(name);
  return names;
}

void SchemaRegistry::AddProvider(const std::string& name, ResourceSchema settings) {
  providers_[name] = std::move(settings);
}

const ResourceSchema* SchemaRegistry::ProviderSettings(const std::string& name) const {
  auto it = providers_.find(name);
  return it == providers_.end() ? nullptr : &it->second;
}

std::vector<std::string> SchemaRegistry::ProviderNames() const {
  std::vector<std::string> names;
  for (const auto& [name, settings] : providers_) names.push_back(name);
  return names;
}

}  // namespace strata
