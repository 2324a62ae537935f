#pragma once
// Terraform's spelling of Kubernetes' fields and kinds — the small table its kubernetes
// provider's typed resources add to the OpenAPI shapes (typed_catalog.h):
//   - camelCase becomes snake_case, an acronym one word ("clusterIPs" → "cluster_ips",
//     "nonResourceURLs" → "non_resource_urls");
//   - most repeated blocks are singular ("containers" → "container", "volumeMounts" →
//     "volume_mount", "rules" → "rule", "subjects" → "subject"; "env", "env_from",
//     "match_expressions", "items" and "host_aliases" stay as they are);
//   - a few fields are named differently in one place (a DaemonSet's "strategy", a
//     ServiceAccount's "image_pull_secret", a StorageClass's "storage_provisioner").
// And the resource types: Terraform's names (plain and _v1 spellings), the kind each
// applies, and the argument that says whether an apply waits for the object.

#include <string>
#include <string_view>
#include <vector>

#include "providers/kubernetes/typed/typed_catalog.h"

namespace strata::kubernetes {

//! "clusterIP" → "cluster_ip", "targetCPUUtilizationPercentage" → "target_cpu_utilization_percentage".
std::string SnakeCase(std::string_view camel);

//! Terraform's name of `field` of `definition` (a full definition name, or its last part).
std::string TerraformFieldName(std::string_view definition, const CatalogField& field);

//! Fields Terraform's resource does not offer because they never read back (a Secret's
//! stringData, which the server folds into data).
bool TerraformOmits(std::string_view definition, const CatalogField& field);

//! The value Terraform's schema gives `field` of `definition` when the configuration leaves
//! it out (a container's or a service's port protocol, "TCP", which the API server would
//! default too); nullptr when it has none.
const char* TerraformFieldDefault(std::string_view definition, const CatalogField& field);

struct TypedResourceKind {
  std::vector<std::string> type_names;  //!< "kubernetes_deployment", "kubernetes_deployment_v1"
  std::string kind;                     //!< in the catalog: "Deployment"
  //! The bool argument that makes an apply wait for the object's rollout
  //! ("wait_for_rollout"); empty: the type never waits.
  std::string wait_argument;
  bool wait_default = true;  //!< the argument's default (an Ingress does not wait unless asked)
};

//! Every typed resource Strata serves, in the order Terraform's documentation lists them.
const std::vector<TypedResourceKind>& TypedResourceKinds();

}  // namespace strata::kubernetes
