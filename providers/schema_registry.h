#pragma once
// The registry of resource and data source schemas of every provider compiled in.

#include <map>
#include <string>
#include <vector>

#include "engine/value/schema.h"

namespace strata {

class SchemaRegistry : public SchemaSource {
 public:
  void Add(ResourceSchema schema);
  //! Provider `name`'s block settings.
  void AddProvider(const std::string& name, ResourceSchema settings);
  const ResourceSchema* Find(ResourceMode mode, const std::string& type) const override;
  std::vector<std::string> TypeNames(ResourceMode mode) const override;
  const ResourceSchema* ProviderSettings(const std::string& name) const override;
  std::vector<std::string> ProviderNames() const override;

 private:
  std::map<std::string, ResourceSchema> providers_;
  std::map<std::string, ResourceSchema> managed_;
  std::map<std::string, ResourceSchema> data_;
};

}  // namespace strata
