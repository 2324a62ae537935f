#pragma once
// Terraform's typed Kubernetes resources (kubernetes_deployment, kubernetes_config_map, ...):
// each translated into a manifest (typed_shape.h) and handed to the one code path of
// kubernetes_manifest (manifest/manifest_resource.h): server-side apply, the ownership-aware
// diff, ordering classes, readiness waits.

#include <memory>
#include <vector>

#include "providers/kubernetes/client/kube_session.h"
#include "providers/resource_type.h"

namespace strata::kubernetes {

//! One resource type per Terraform name in TypedResourceKinds() (terraform_names.h).
std::vector<std::unique_ptr<ResourceType>> NewKubernetesTypedResources(std::shared_ptr<KubeSession> session);

}  // namespace strata::kubernetes
