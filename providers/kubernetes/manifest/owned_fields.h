#pragma once
// A field manager's FieldsV1 (the trie in metadata.managedFields: "f:<field>",
// "k:<json keys>" for items of map lists, "v:<json>" for items of set lists, "i:<index>",
// and "." for the item itself) against an object: the part of the object the manager owns,
// and the paths it owns as Kubernetes prints them in conflicts (".spec.replicas",
// ".spec.template.spec.containers[name=\"app\"].image").

#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace strata::kubernetes {

//! The parts of `object` at the paths of `fields` (a FieldsV1 object; null: nothing), with
//! list items kept in the object's order. Paths the object does not have are left out.
nlohmann::json OwnedObject(const nlohmann::json& object, const nlohmann::json& fields);

//! Every path in `fields` (inner nodes and leaves), printed as Kubernetes prints field paths.
std::set<std::string> FieldPaths(const nlohmann::json& fields);

//! The union of two FieldsV1 tries.
nlohmann::json UnionFields(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace strata::kubernetes
