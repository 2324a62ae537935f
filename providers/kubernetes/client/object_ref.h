#pragma once
// Which object a manifest names (apiVersion, kind, namespace, name), the API paths that
// reach it once discovery knows its resource, and the import id that spells it:
// "apiVersion=apps/v1,kind=Deployment,namespace=kube-system,name=cluster-autoscaler".

#include <optional>
#include <string>

#include "providers/kubernetes/client/discovery.h"

namespace strata::kubernetes {

struct ObjectRef {
  std::string api_version;
  std::string kind;
  std::string namespace_name;  //!< empty: none written (cluster-scoped, or the default namespace)
  std::string name;

  //! "apps/v1 Deployment kube-system/cluster-autoscaler": for messages.
  std::string Describe() const;
  //! The import id form above (namespace omitted when empty).
  std::string Id() const;
};

//! The reference a manifest (a JSON object) names, or an error message saying which of
//! apiVersion, kind, metadata.name is missing or not a string.
base::Result<ObjectRef, std::string> RefOf(const Json& manifest);

//! Parses an import id; the error names the expected form.
base::Result<ObjectRef, std::string> ParseObjectId(const std::string& id);

//! The collection path: "/apis/apps/v1/namespaces/kube-system/deployments" (no namespace
//! segment for cluster-scoped resources).
std::string CollectionPath(const ResourceInfo& resource, const std::string& namespace_name);
//! The object path: CollectionPath + "/" + name.
std::string ObjectPath(const ResourceInfo& resource, const std::string& namespace_name, const std::string& name);

}  // namespace strata::kubernetes
