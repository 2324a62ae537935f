#include "providers/kubernetes/manifest/ordering.h"

#include <map>
#include <utility>

namespace strata::kubernetes {

int OrderingClassOf(const std::string& group, const std::string& kind) {
  static const std::map<std::pair<std::string, std::string>, int> classes = {
      {{"", "Namespace"}, 0},
      {{"apiextensions.k8s.io", "CustomResourceDefinition"}, 0},
      {{"rbac.authorization.k8s.io", "ClusterRole"}, 1},
      {{"rbac.authorization.k8s.io", "ClusterRoleBinding"}, 1},
      {{"storage.k8s.io", "StorageClass"}, 1},
      {{"scheduling.k8s.io", "PriorityClass"}, 1},
      {{"networking.k8s.io", "IngressClass"}, 1},
      {{"node.k8s.io", "RuntimeClass"}, 1},
      {{"", "PersistentVolume"}, 1},
      {{"", "ServiceAccount"}, 2},
      {{"rbac.authorization.k8s.io", "Role"}, 2},
      {{"rbac.authorization.k8s.io", "RoleBinding"}, 2},
      {{"", "ConfigMap"}, 2},
      {{"", "Secret"}, 2},
      {{"", "PersistentVolumeClaim"}, 2},
      {{"", "ResourceQuota"}, 2},
      {{"", "LimitRange"}, 2},
      {{"networking.k8s.io", "NetworkPolicy"}, 2},
      {{"policy", "PodDisruptionBudget"}, 2},
      {{"", "Service"}, 3},
      {{"apps", "Deployment"}, 4},
      {{"apps", "DaemonSet"}, 4},
      {{"apps", "StatefulSet"}, 4},
      {{"apps", "ReplicaSet"}, 4},
      {{"", "Pod"}, 4},
      {{"", "ReplicationController"}, 4},
      {{"batch", "Job"}, 4},
      {{"batch", "CronJob"}, 4},
      {{"autoscaling", "HorizontalPodAutoscaler"}, 4},
      {{"networking.k8s.io", "Ingress"}, 4},
      {{"admissionregistration.k8s.io", "MutatingWebhookConfiguration"}, 6},
      {{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"}, 6},
      {{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"}, 6},
      {{"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"}, 6},
      {{"apiregistration.k8s.io", "APIService"}, 6},
  };
  auto it = classes.find({group, kind});
  return it == classes.end() ? 5 : it->second;
}

}  // namespace strata::kubernetes
