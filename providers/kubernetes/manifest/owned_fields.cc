#include "providers/kubernetes/manifest/owned_fields.h"

#include "providers/kubernetes/fieldpath/extract.h"
#include "providers/kubernetes/fieldpath/fields_v1.h"

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;

// The set a FieldsV1 trie spells; empty for null or a malformed trie (which the server
// never writes).
fieldpath::Set SetOf(const Json& fields) {
  if (!fields.is_object()) return {};
  auto set = fieldpath::FromFieldsV1(fields);
  return set.ok() ? *set : fieldpath::Set();
}

}  // namespace

Json OwnedObject(const Json& object, const Json& fields) { return fieldpath::ExtractFields(object, SetOf(fields)); }

std::set<std::string> FieldPaths(const Json& fields) {
  std::set<std::string> out;
  SetOf(fields).Iterate([&](const fieldpath::Path& path) { out.insert(fieldpath::PathString(path)); });
  return out;
}

Json UnionFields(const Json& a, const Json& b) { return fieldpath::ToFieldsV1(SetOf(a).Union(SetOf(b))); }

}  // namespace strata::kubernetes
