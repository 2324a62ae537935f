#pragma once
// FieldsV1, the form metadata.managedFields[].fieldsV1 holds a Set in: a JSON object whose
// keys are serialized path elements (path_element.h) and whose values are the sets beneath
// them; "." marks a path that is itself a member and also has children. A member without
// children is an empty object. {"f:metadata":{"f:labels":{".":{},"f:app":{}}}}
//
// Writing follows structured-merge-diff byte for byte: keys in path-element order (fields,
// then keys, values, indices — not alphabetical), "." first, compact JSON, Go's escaping.
// The Json form loses that order (nlohmann sorts object keys); use the text where bytes
// matter.

#include <string>

#include "providers/kubernetes/fieldpath/set.h"

namespace strata::kubernetes::fieldpath {

//! The FieldsV1 text of `set`, exactly as Kubernetes writes it ("{}" for an empty set).
std::string ToFieldsV1Text(const Set& set);
//! The same as a JSON value.
Json ToFieldsV1(const Set& set);

//! Reads a FieldsV1 object. Keys of an unknown kind are skipped (as Kubernetes does); a key
//! that is malformed, or a value that is not an object, is an error naming the path to it.
base::Result<Set, std::string> FromFieldsV1(const Json& fields);
//! Reads FieldsV1 text; invalid JSON is an error.
base::Result<Set, std::string> FromFieldsV1Text(std::string_view text);

}  // namespace strata::kubernetes::fieldpath
