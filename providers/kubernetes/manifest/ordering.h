#pragma once
// The ordering class of a Kubernetes object (Provider::OrderingClass): what must exist
// before it can be applied. Lower first on create and update, last on delete; the order
// Helm installs in and Pulumi applies in, as a handful of classes:
//   0 Namespace, CustomResourceDefinition — everything else may live in or be of them;
//   1 cluster-scoped objects others refer to: ClusterRole(Binding), StorageClass,
//     PriorityClass, IngressClass, PersistentVolume, RuntimeClass;
//   2 what workloads need in their namespace: ServiceAccount, Role(Binding), ConfigMap,
//     Secret, PVC, ResourceQuota, LimitRange, NetworkPolicy, PodDisruptionBudget;
//   3 Service (webhook services before the webhook configurations that call them);
//   4 workloads: Deployment, DaemonSet, StatefulSet, ReplicaSet, Pod, Job, CronJob, HPA, Ingress;
//   5 any other kind, custom resources included (their operators run as class-4 workloads);
//   6 webhook configurations and APIServices: once what serves them is up, after
//     everything they would otherwise intercept.

#include <string>

namespace strata::kubernetes {

//! The class of `kind` in API group `group` ("" for the core group).
int OrderingClassOf(const std::string& group, const std::string& kind);

}  // namespace strata::kubernetes
