// AddBuiltinSchemas: the builtin provider's schemas, taken from the provider itself (each
// resource type's file defines its schema) so there is one source of truth.
#include "providers/builtin/builtin_provider.h"
#include "providers/schema_registry.h"

namespace strata {

void AddBuiltinSchemas(SchemaRegistry& registry) {
  static const ProviderSchema schema = BuiltinProvider().Schema();
  for (const ResourceSchema& s : schema.resources) registry.Add(s);
  for (const ResourceSchema& s : schema.data_sources) registry.Add(s);
}

}  // namespace strata
