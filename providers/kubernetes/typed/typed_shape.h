#pragma once
// One typed resource's shape and its translation — Terraform's attributes for a Kubernetes
// kind, built from the OpenAPI catalog (typed_catalog.h) and Terraform's names
// (terraform_names.h), never written by hand per kind:
//   - `metadata`: Terraform's block {name, namespace, labels, annotations, generate_name}
//     plus the server's resource_version, uid and generation;
//   - every other top-level field of the kind (`spec`, `data`, `rule`, `role_ref`, ...):
//     an object is a block of at most one (a list of one object, as `vpc_config`), a list
//     of objects a repeated block, maps and lists of scalars as they are, an int-or-string
//     a string.
// ToManifest turns a typed value into the manifest kubernetes_manifest would apply;
// FromObject turns an object (the part Strata's manager owns) back into typed attributes.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/value/schema.h"
#include "engine/value/value.h"
#include "providers/kubernetes/typed/typed_catalog.h"

namespace strata::kubernetes {

class TypedShape {
 public:
  //! `kind` must be one of `catalog`'s kinds; both must outlive the shape.
  TypedShape(const TypedCatalog& catalog, const CatalogKind& kind);

  const CatalogKind& kind() const { return kind_; }
  //! Terraform's arguments of the kind: `metadata` (required) and its top-level fields.
  const std::map<std::string, AttributeSchema>& Attributes() const { return attributes_; }

  //! The manifest `typed` describes: apiVersion, kind, metadata (a namespaced kind's
  //! namespace "default" when none is written, as Terraform's), the fields translated.
  //! Unknown where `typed` is unknown. A Secret's `data` is written plain and sent base64.
  Value ToManifest(const Value& typed) const;
  //! The typed arguments (Attributes()) of `object`; metadata's resource_version, uid and
  //! generation come from `live` (the whole object as the server answered). A quantity
  //! equal in value to the one at the same place in `prior` (typed, or null) keeps prior's
  //! spelling: the server writes "0.5" as "500m", which is no change.
  ValueMap FromObject(const nlohmann::json& object, const nlohmann::json& live, const Value& prior = Value()) const;
  //! `typed` with Terraform's schema defaults (TerraformFieldDefault) where it leaves a field
  //! out, in every block: the plan, the manifest sent and the object read back then agree.
  Value WithFieldDefaults(const Value& typed) const;

 private:
  Type BlockType(const std::string& definition) const;
  Type FieldType(const CatalogField& field) const;
  Value ObjectToK8s(const std::string& definition, const Value& block) const;
  // `fields_of`: the fields `field` is one of (the kind's own: its metadata is the object's).
  Value FieldToK8s(const CatalogField& field, const Value& v, const std::vector<CatalogField>* fields_of) const;
  Value ObjectFromK8s(const std::string& definition, const nlohmann::json& object, const Value& prior) const;
  Value FieldFromK8s(const CatalogField& field, const nlohmann::json& j, const Value& prior) const;
  Value BlockDefaults(const std::string& definition, const Value& block) const;

  const TypedCatalog& catalog_;
  const CatalogKind& kind_;
  mutable std::map<std::string, Type> types_;  // object type per definition
  std::map<std::string, AttributeSchema> attributes_;
};

//! Terraform's `metadata` block object type.
Type MetadataBlockType();

}  // namespace strata::kubernetes
