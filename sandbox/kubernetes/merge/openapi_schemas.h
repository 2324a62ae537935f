#pragma once
// Object types read from OpenAPI schemas: the built-in kinds from Kubernetes' swagger.json
// (OpenAPI v2, `definitions` linked by `$ref: #/definitions/X`) and custom resources from a
// CRD version's openAPIV3Schema (inline nodes).
//
// Loading parses the document once and indexes the kinds; a definition is turned into type
// nodes the first time it is looked up (with everything it refers to), so start-up costs
// one JSON parse (about a tenth of a second for the 3.2 MB v1.31 spec, -O2). Lookups may come
// from several threads (a mutex guards the building; built nodes never change).

#include <memory>
#include <optional>
#include <string>

#include "engine/base/result.h"
#include "sandbox/kubernetes/merge/object_type.h"

namespace strata::sandbox::k8s {

class OpenApiSchemas {
 public:
  //! From a parsed swagger.json. An error when it has no `definitions` object.
  static base::Result<OpenApiSchemas, std::string> FromSwagger(Json document);
  //! Reads and parses the file first; errors name the file.
  static base::Result<OpenApiSchemas, std::string> LoadSwaggerFile(const std::string& path);

  //! The type of definition `name` ("io.k8s.api.apps.v1.Deployment"); nullopt when there is
  //! no such definition.
  std::optional<ObjectType> Lookup(const std::string& name) const;
  //! The definition whose x-kubernetes-group-version-kind names this kind (group "" for the
  //! core group): Deployment in apps/v1 → "io.k8s.api.apps.v1.Deployment".
  std::optional<std::string> DefinitionFor(const std::string& group, const std::string& version,
                                           const std::string& kind) const;

  //! A custom resource's type from its CRD version's schema.openAPIV3Schema (null or absent:
  //! no schema, all untyped). `metadata` is typed as ObjectMeta from these built-in
  //! definitions (as kube-apiserver does for custom resources); apiVersion and kind are
  //! scalars. x-kubernetes-preserve-unknown-fields makes a node's other members untyped.
  ObjectType ForCustomResource(const Json& open_api_v3_schema) const;

 private:
  struct Impl;
  explicit OpenApiSchemas(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace strata::sandbox::k8s
