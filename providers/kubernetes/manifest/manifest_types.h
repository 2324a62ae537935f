#pragma once
// The kubernetes provider's resource and data source types, one file each.

#include <memory>

#include "providers/kubernetes/client/kube_session.h"
#include "providers/resource_type.h"

namespace strata::kubernetes {

//! kubernetes_manifest: one object of any kind, applied with server-side apply.
std::unique_ptr<ResourceType> NewKubernetesManifest(std::shared_ptr<KubeSession> session);
//! data kubernetes_resource: one object read by apiVersion, kind, name and namespace.
std::unique_ptr<DataSourceType> NewKubernetesResourceData(std::shared_ptr<KubeSession> session);
//! data kubernetes_resources: the objects of a kind picked by namespace and selectors.
std::unique_ptr<DataSourceType> NewKubernetesResourcesData(std::shared_ptr<KubeSession> session);

}  // namespace strata::kubernetes
