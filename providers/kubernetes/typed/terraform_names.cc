#include "providers/kubernetes/typed/terraform_names.h"

#include <cctype>
#include <map>
#include <utility>

namespace strata::kubernetes {
namespace {

bool IsUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool IsLower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }

// Repeated blocks Terraform names in the singular (Kubernetes field → Terraform name), for
// lists of objects wherever they appear. Checked against the provider's schema_*.go files.
const std::map<std::string, std::string, std::less<>>& SingularBlocks() {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"containers", "container"},
      {"httpHeaders", "http_header"},
      {"initContainers", "init_container"},
      {"metrics", "metric"},
      {"nodeSelectorTerms", "node_selector_term"},
      {"onPodConditions", "on_pod_condition"},
      {"options", "option"},
      {"paths", "path"},
      {"policies", "policy"},
      {"ports", "port"},
      {"readinessGates", "readiness_gate"},
      {"rules", "rule"},
      {"secrets", "secret"},
      {"subjects", "subject"},
      {"sysctls", "sysctl"},
      {"tolerations", "toleration"},
      {"topologySpreadConstraints", "topology_spread_constraint"},
      {"volumeClaimTemplates", "volume_claim_template"},
      {"volumeDevices", "volume_device"},
      {"volumeMounts", "volume_mount"},
      {"volumes", "volume"},
  };
  return names;
}

// Fields one definition names differently (definition's last part, field → Terraform name);
// scripts/terraform_gaps.py, run over Terraform's documentation, finds the ones missing.
const std::map<std::pair<std::string, std::string>, std::string, std::less<>>& OneOffNames() {
  static const std::map<std::pair<std::string, std::string>, std::string, std::less<>> names = {
      {{"AzureDiskVolumeSource", "diskURI"}, "data_disk_uri"},
      {{"CronJobSpec", "timeZone"}, "timezone"},
      {{"DaemonSetSpec", "updateStrategy"}, "strategy"},
      {{"FCVolumeSource", "targetWWNs"}, "target_ww_ns"},
      {{"GlusterfsVolumeSource", "endpoints"}, "endpoints_name"},
      {{"RBDVolumeSource", "image"}, "rbd_image"},
      {{"RBDVolumeSource", "monitors"}, "ceph_monitors"},
      {{"RBDVolumeSource", "pool"}, "rbd_pool"},
      {{"RBDVolumeSource", "user"}, "rados_user"},
      {{"ServiceAccount", "imagePullSecrets"}, "image_pull_secret"},
      {{"StorageClass", "provisioner"}, "storage_provisioner"},
      {{"Volume", "cephfs"}, "ceph_fs"},
      {{"WindowsSecurityContextOptions", "runAsUserName"}, "run_as_username"},
  };
  return names;
}

}  // namespace

std::string SnakeCase(std::string_view camel) {
  std::string out;
  for (size_t i = 0; i < camel.size(); ++i) {
    char c = camel[i];
    if (IsUpper(c) && i > 0) {
      char prev = camel[i - 1];
      char next = i + 1 < camel.size() ? camel[i + 1] : '\0';
      // An acronym's plural "s" stays with it ("IPs"); an acronym's last capital starts
      // the next word ("CPUUtilization" → "cpu_utilization").
      bool plural_s = next == 's' && (i + 2 >= camel.size() || IsUpper(camel[i + 2]));
      if (!IsUpper(prev) || (IsLower(next) && !plural_s)) out += '_';
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string TerraformFieldName(std::string_view definition, const CatalogField& field) {
  std::string_view last = definition.substr(definition.rfind('.') + 1);
  auto one_off = OneOffNames().find(std::make_pair(std::string(last), field.name));
  if (one_off != OneOffNames().end()) return one_off->second;
  if (field.shape == FieldShape::ObjectList) {
    auto singular = SingularBlocks().find(field.name);
    if (singular != SingularBlocks().end()) return singular->second;
  }
  return SnakeCase(field.name);
}

bool TerraformOmits(std::string_view definition, const CatalogField& field) {
  return definition == "io.k8s.api.core.v1.Secret" && field.name == "stringData";
}

const char* TerraformFieldDefault(std::string_view definition, const CatalogField& field) {
  if (field.name == "protocol" &&
      (definition == "io.k8s.api.core.v1.ContainerPort" || definition == "io.k8s.api.core.v1.ServicePort")) {
    return "TCP";
  }
  return nullptr;
}

const std::vector<TypedResourceKind>& TypedResourceKinds() {
  static const std::vector<TypedResourceKind> kinds = {
      {{"kubernetes_namespace", "kubernetes_namespace_v1"}, "Namespace", ""},
      {{"kubernetes_service_account", "kubernetes_service_account_v1"}, "ServiceAccount", ""},
      {{"kubernetes_config_map", "kubernetes_config_map_v1"}, "ConfigMap", ""},
      {{"kubernetes_secret", "kubernetes_secret_v1"}, "Secret", ""},
      {{"kubernetes_cluster_role", "kubernetes_cluster_role_v1"}, "ClusterRole", ""},
      {{"kubernetes_cluster_role_binding", "kubernetes_cluster_role_binding_v1"}, "ClusterRoleBinding", ""},
      {{"kubernetes_role", "kubernetes_role_v1"}, "Role", ""},
      {{"kubernetes_role_binding", "kubernetes_role_binding_v1"}, "RoleBinding", ""},
      {{"kubernetes_deployment", "kubernetes_deployment_v1"}, "Deployment", "wait_for_rollout"},
      {{"kubernetes_daemonset", "kubernetes_daemon_set_v1"}, "DaemonSet", "wait_for_rollout"},
      {{"kubernetes_stateful_set", "kubernetes_stateful_set_v1"}, "StatefulSet", "wait_for_rollout"},
      {{"kubernetes_service", "kubernetes_service_v1"}, "Service", "wait_for_load_balancer"},
      {{"kubernetes_ingress_v1"}, "Ingress", "wait_for_load_balancer", false},
      {{"kubernetes_storage_class", "kubernetes_storage_class_v1"}, "StorageClass", ""},
      {{"kubernetes_persistent_volume", "kubernetes_persistent_volume_v1"}, "PersistentVolume", ""},
      {{"kubernetes_persistent_volume_claim", "kubernetes_persistent_volume_claim_v1"}, "PersistentVolumeClaim",
       "wait_until_bound"},
      {{"kubernetes_job", "kubernetes_job_v1"}, "Job", "wait_for_completion"},
      {{"kubernetes_cron_job_v1"}, "CronJob", ""},
      {{"kubernetes_priority_class", "kubernetes_priority_class_v1"}, "PriorityClass", ""},
      {{"kubernetes_horizontal_pod_autoscaler_v2"}, "HorizontalPodAutoscaler", ""},
      {{"kubernetes_pod_disruption_budget_v1"}, "PodDisruptionBudget", ""},
  };
  return kinds;
}

}  // namespace strata::kubernetes
