#pragma once
// The shape server-side apply merges by: for each node of an object, whether it is a
// scalar, an object (a struct of named fields and/or a map of like values; granular or
// atomic) or a list (atomic, a set of scalars, or a map-list keyed by some fields), as the
// OpenAPI markers say (x-kubernetes-list-type, -list-map-keys, -map-type; patch-strategy
// merge + patch-merge-key when no list type is given).
//
// "Untyped" is structured-merge-diff's deduced type, for what no schema describes (custom
// resources without a schema, x-kubernetes-preserve-unknown-fields, fields a schema does
// not name): objects are granular maps of untyped values, lists are atomic.
//
// Nodes are immutable once built and owned by whoever built them (openapi_schemas.h);
// an ObjectType keeps its owner alive, so it can be copied and kept freely and read from
// several threads.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "providers/kubernetes/fieldpath/set.h"

namespace strata::sandbox::k8s {

using Json = nlohmann::json;

enum class ListType { kAtomic, kSet, kMap };

struct TypeNode {
  enum class Kind { kUntyped, kScalar, kObject, kList };
  Kind kind = Kind::kUntyped;

  // kObject: the named fields (a struct), the type of any other member (nullptr: untyped),
  // and whether the object is replaced as a whole (x-kubernetes-map-type: atomic).
  std::map<std::string, const TypeNode*> fields;
  const TypeNode* elements = nullptr;
  bool atomic = false;
  // kObject: defaults of fields, used for map-list keys an item omits (a port's protocol).
  std::map<std::string, Json> defaults;

  // kList: the items' type (nullptr: untyped), how items are told apart, and the key fields
  // of a map-list.
  const TypeNode* items = nullptr;
  ListType list_type = ListType::kAtomic;
  std::vector<std::string> keys;

  //! The type of member `name` of an object node: the named field's, else the elements'.
  const TypeNode* Member(const std::string& name) const;
  bool IsNamedField(const std::string& name) const { return fields.count(name) != 0; }
};

//! The untyped node (one shared instance, never changed).
const TypeNode* UntypedNode();

//! The type of one kind of object: the root node, and the fields the server resets on its
//! main resource (e.g. "status" for kinds with a status subresource — what the resource's
//! strategy's GetResetFields returns): they are never recorded in managedFields, and an
//! apply or update cannot change them (they keep the live value).
class ObjectType {
 public:
  ObjectType() : root_(UntypedNode()) {}
  ObjectType(std::shared_ptr<const void> owner, const TypeNode* root) : owner_(std::move(owner)), root_(root) {}

  //! An object no schema describes (a custom resource without one): all untyped.
  static ObjectType Untyped() { return ObjectType(); }

  const TypeNode* root() const { return root_; }

  //! A copy whose reset fields are `fields`.
  ObjectType WithResetFields(kubernetes::fieldpath::Set fields) const;
  //! A copy that resets `status` (the usual case for kinds with a status subresource).
  ObjectType WithStatusReset() const;
  const kubernetes::fieldpath::Set& reset_fields() const { return reset_fields_; }

 private:
  std::shared_ptr<const void> owner_;
  const TypeNode* root_;
  kubernetes::fieldpath::Set reset_fields_;
};

}  // namespace strata::sandbox::k8s
