#include "providers/registry.h"

namespace strata {

void ProviderRegistry::Register(const std::string& name, ProviderFactory factory) {
  std::unique_ptr<Provider> probe = factory();
  Entry entry{std::move(factory), probe ? probe->Schema() : ProviderSchema{}};
  entries_[name] = std::move(entry);
}

std::unique_ptr<Provider> ProviderRegistry::Create(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : it->second.factory();
}

std::vector<std::string> ProviderRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : entries_) names.push_back(name);
  return names;
}

std::optional<std::string> ProviderRegistry::ProviderFor(ResourceMode mode,
                                                         const std::string& type) const {
  for (const auto& [name, entry] : entries_) {
    if (entry.schema.Find(mode, type)) return name;
  }
  return std::nullopt;
}

const ProviderSchema* ProviderRegistry::SchemaOf(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second.schema;
}

SchemaRegistry ProviderRegistry::Schemas() const {
  SchemaRegistry registry;
  for (const auto& [name, entry] : entries_) {
    for (const ResourceSchema& s : entry.schema.resources) registry.Add(s);
    for (const ResourceSchema& s : entry.schema.data_sources) registry.Add(s);
    registry.AddProvider(name, entry.schema.provider);
  }
  return registry;
}

}  // namespace strata
