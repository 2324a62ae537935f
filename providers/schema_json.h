#pragma once
// Every provider's schema as `terraform providers schema -json` prints it (format 1.0), what
// editors, linters and policy tools read: per provider its settings block, and every
// resource and data source type's block — attributes with their type (cty's JSON form:
// "string", ["list","string"], ["object",{...}]) and required/optional/computed/sensitive,
// and nested blocks. Strata's schemas type a block as a list or set of objects; those a
// configuration sets (required or optional) are written as block_types with nesting_mode
// "list" or "set", the way Terraform's providers declare them; computed-only ones stay
// attributes.

#include <nlohmann/json.hpp>

#include "providers/registry.h"

namespace strata {

//! {"format_version": "1.0", "provider_schemas": {"strata/<name>": {...}}}.
nlohmann::json ProviderSchemasJson(const ProviderRegistry& registry);

}  // namespace strata
