#pragma once
// Helpers for resource values and schemas, shared by every provider's types: reading and
// setting attributes of object values, normalising a value to its schema, and schema
// shorthands (Required, Optional, Computed, ManagedSchema).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/diag/diagnostic.h"
#include "engine/value/schema.h"
#include "engine/value/value.h"

namespace strata::attrs {

//! The attribute `name` of object `v`; null if `v` is not an object or lacks it.
Value Get(const Value& v, const std::string& name);
//! `v` (an object, or null meaning {}) with `name` set to `value`.
Value With(const Value& v, const std::string& name, Value value);
//! A known, non-null string attribute, else `fallback`.
std::string GetString(const Value& v, const std::string& name, const std::string& fallback = "");
std::optional<double> GetNumber(const Value& v, const std::string& name);
bool GetBool(const Value& v, const std::string& name, bool fallback);
//! A known map/object of strings (others are converted with their printed form).
std::map<std::string, std::string> GetStringMap(const Value& v, const std::string& name);
std::vector<std::string> GetStringList(const Value& v, const std::string& name);
//! The strings as a list value.
Value StringListValue(const std::vector<std::string>& items);
//! A list or set read back from an API, as state keeps it: null when it is empty and
//! `prior` (the attribute's value before, or as planned) is null, so that an optional
//! collection the configuration leaves unset does not read back as a change to [] (the
//! APIs answer [] or nothing alike; Terraform's SDK holds null and empty alike).
Value NullIfEmptyAndUnset(Value read, const Value& prior);
//! The elements of the list or set attribute `name` (a repeated block: "taint"); empty
//! when it is null, unknown or not a collection.
ValueList Blocks(const Value& v, const std::string& name);
//! The first element of a list-of-one-object block ("vpc_config", "tag"), or null.
Value FirstBlock(const Value& v, const std::string& name);
//! Every schema attribute present (null when missing), attributes outside the schema dropped,
//! sensitive attributes marked.
Value Normalize(const ResourceSchema& schema, const Value& v);

Diagnostics Error(const std::string& summary, const std::string& detail);
//! The parts of a composite import id ("RESULT,MIN,MAX"): split at every `separator`,
//! empty parts kept ("A,,B" has three).
std::vector<std::string> SplitImportId(const std::string& id, char separator = ',');

// Schema shorthands.
AttributeSchema Required(const char* type, bool force_new = false);
AttributeSchema Optional(const char* type, bool force_new = false);
//! Optional and computed: a default is filled in when left unset.
AttributeSchema OptionalComputed(const char* type, bool force_new = false);
AttributeSchema Computed(const char* type, bool sensitive = false);
//! A managed type's schema with the computed "id" attribute added.
ResourceSchema ManagedSchema(const char* type, std::map<std::string, AttributeSchema> attributes);

}  // namespace strata::attrs
