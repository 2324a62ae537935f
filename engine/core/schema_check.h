#pragma once
// Static checks of a resource declaration against its type's schema: the type exists, every
// property is an attribute of it, required attributes are set, computed-only ones are not.

#include "engine/config/module.h"
#include "engine/diag/diagnostic.h"
#include "engine/value/schema.h"

namespace strata {

void CheckResourceAgainstSchema(const ResourceConfig& resource, const SchemaSource& schemas, Diagnostics& diags);

//! Converts each evaluated property to its attribute's type; reports mismatches at the
//! property's position. Returns the converted object.
Value ConformToSchema(const ResourceConfig& resource, const ResourceSchema& schema, const Value& properties,
                      const std::string& address, Diagnostics& diags);

//! The value a resource instance has before apply: its properties, computed attributes
//! unknown, unset optional ones null.
Value PlannedInstanceValue(const ResourceSchema& schema, const Value& properties);

}  // namespace strata
