#pragma once
// The provider registry: provider name -> factory, and which provider serves which
// resource type. The engine creates one Provider instance per provider block (or per
// provider name when there is none) through it; tests register fakes.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "providers/provider.h"
#include "providers/schema_registry.h"

namespace strata {

using ProviderFactory = std::function<std::unique_ptr<Provider>()>;

class ProviderRegistry {
 public:
  //! Registers (or replaces) a provider. The factory is called once here to read the
  //! provider's schema, so that types can be mapped to providers without configuring.
  void Register(const std::string& name, ProviderFactory factory);

  bool Has(const std::string& name) const { return entries_.count(name) != 0; }
  //! A new, unconfigured instance; nullptr for an unknown name.
  std::unique_ptr<Provider> Create(const std::string& name) const;
  std::vector<std::string> Names() const;

  //! The provider serving a resource (or data source) type, if any.
  std::optional<std::string> ProviderFor(ResourceMode mode, const std::string& type) const;
  //! The static schema of a provider; nullptr for an unknown name.
  const ProviderSchema* SchemaOf(const std::string& name) const;
  //! Every registered provider's resource and data source schemas, for the engine's
  //! SchemaSource.
  SchemaRegistry Schemas() const;

 private:
  struct Entry {
    ProviderFactory factory;
    ProviderSchema schema;
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace strata
