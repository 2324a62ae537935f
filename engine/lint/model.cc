#include "engine/lint/model.h"

#include <map>
#include <set>

namespace strata::lint {
namespace {

// Terraform's typed kubernetes resources and the kind each manages (the kubernetes provider's
// table, providers/kubernetes/typed/terraform_names.cc, which lint may not include).
const std::map<std::string, std::string>& TypedKinds() {
  static const std::map<std::string, std::string> kinds = {
      {"namespace", "Namespace"},
      {"service_account", "ServiceAccount"},
      {"config_map", "ConfigMap"},
      {"secret", "Secret"},
      {"cluster_role", "ClusterRole"},
      {"cluster_role_binding", "ClusterRoleBinding"},
      {"role", "Role"},
      {"role_binding", "RoleBinding"},
      {"deployment", "Deployment"},
      {"daemonset", "DaemonSet"},
      {"daemon_set", "DaemonSet"},
      {"stateful_set", "StatefulSet"},
      {"service", "Service"},
      {"ingress", "Ingress"},
      {"storage_class", "StorageClass"},
      {"persistent_volume", "PersistentVolume"},
      {"persistent_volume_claim", "PersistentVolumeClaim"},
      {"job", "Job"},
      {"cron_job", "CronJob"},
      {"priority_class", "PriorityClass"},
      {"horizontal_pod_autoscaler", "HorizontalPodAutoscaler"},
      {"pod_disruption_budget", "PodDisruptionBudget"},
  };
  return kinds;
}

// "kubernetes_daemon_set_v1" → "DaemonSet"; "" for a type that manages no whole object.
std::string TypedKind(const std::string& type) {
  const std::string prefix = "kubernetes_";
  if (type.rfind(prefix, 0) != 0) return "";
  std::string rest = type.substr(prefix.size());
  auto v = rest.rfind("_v");
  if (v != std::string::npos && v + 2 < rest.size() && rest.find_first_not_of("0123456789", v + 2) == std::string::npos) {
    rest.resize(v);
  }
  auto it = TypedKinds().find(rest);
  return it == TypedKinds().end() ? "" : it->second;
}

void AddObject(ProjectModel& model, const Instance& inst) {
  KubeObject o;
  o.instance = &inst;
  Path meta;
  if (inst.type == "kubernetes_manifest") {
    const Value* manifest = ValueAt(*inst.value, {"manifest"});
    if (!manifest || !manifest->IsMapping()) return;
    o.base = {"manifest"};
    o.object = *manifest;
    o.api_version = StringAt(o.object, {"apiVersion"}).value_or("");
    o.kind = StringAt(o.object, {"kind"}).value_or("");
    meta = {"metadata"};
  } else {
    o.kind = TypedKind(inst.type);
    if (o.kind.empty()) return;
    o.typed = true;
    o.object = *inst.value;
    meta = {"metadata", size_t{0}};
  }
  auto name = StringAt(o.object, Join(meta, {"name"}));
  if (o.kind.empty() || !name) return;
  o.name = *name;
  if (!ClusterScopedKind(o.kind)) {
    const Value* ns = ValueAt(o.object, Join(meta, {"namespace"}));
    if (ns && !ns->IsKnown()) return;  // an identity not known before apply
    o.ns = ns && ns->IsString() && !ns->AsString().empty() ? ns->AsString() : "default";
  }
  model.objects.push_back(std::move(o));
}

}  // namespace

const Value* ValueAt(const Value& v, const Path& path) {
  const Value* at = &v;
  for (const PathStep& step : path) {
    if (!at->IsKnown()) return nullptr;
    if (const std::string* key = std::get_if<std::string>(&step)) {
      if (!at->IsMapping()) return nullptr;
      auto it = at->AsMap().find(*key);
      if (it == at->AsMap().end()) return nullptr;
      at = &it->second;
    } else {
      size_t index = std::get<size_t>(step);
      if (!at->IsSequence() || index >= at->AsList().size()) return nullptr;
      at = &at->AsList()[index];
    }
  }
  return at;
}

std::optional<std::string> StringAt(const Value& v, const Path& path) {
  const Value* at = ValueAt(v, path);
  if (!at || !at->IsString()) return std::nullopt;
  return at->AsString();
}

std::optional<double> NumberAt(const Value& v, const Path& path) {
  const Value* at = ValueAt(v, path);
  if (!at) return std::nullopt;
  if (at->IsNumber()) return at->AsNumber();
  if (at->IsString()) {
    try {
      size_t used = 0;
      double d = std::stod(at->AsString(), &used);
      if (used == at->AsString().size()) return d;
    } catch (...) {
    }
  }
  return std::nullopt;
}

std::string LowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Path Join(const Path& a, const Path& b) {
  Path out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

bool ClusterScopedKind(const std::string& kind) {
  static const std::set<std::string> kinds = {
      "Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "StorageClass",
      "PersistentVolume", "PriorityClass", "Node", "APIService", "MutatingWebhookConfiguration",
      "ValidatingWebhookConfiguration", "CSIDriver", "CSINode", "IngressClass", "RuntimeClass",
      "PodSecurityPolicy", "VolumeAttachment", "ClusterIssuer", "NodePool", "EC2NodeClass",
      "Provisioner", "AWSNodeTemplate", "FlowSchema", "PriorityLevelConfiguration"};
  return kinds.count(kind) > 0;
}

std::string KubeObject::Identity() const { return ns.empty() ? kind + "/" + name : kind + "/" + ns + "/" + name; }

namespace {

void CollectPodSpecs(const Value& v, Path& at, std::vector<Path>& out, int depth) {
  if (depth > 12 || !v.IsKnown()) return;
  if (v.IsMapping()) {
    auto containers = v.AsMap().find("containers");
    if (containers != v.AsMap().end() && containers->second.IsSequence()) {
      out.push_back(at);
      return;
    }
    for (const auto& [key, e] : v.AsMap()) {
      at.push_back(key);
      CollectPodSpecs(e, at, out, depth + 1);
      at.pop_back();
    }
  } else if (v.IsSequence()) {
    for (size_t i = 0; i < v.AsList().size(); ++i) {
      at.push_back(i);
      CollectPodSpecs(v.AsList()[i], at, out, depth + 1);
      at.pop_back();
    }
  }
}

}  // namespace

std::vector<Path> KubeObject::PodSpecs() const {
  std::vector<Path> out;
  if (typed) {
    // Terraform's shape: every nested block a one-element list.
    static const std::set<std::string> templated = {"Deployment", "DaemonSet", "StatefulSet", "Job"};
    Path spec;
    if (templated.count(kind)) spec = {"spec", size_t{0}, "template", size_t{0}, "spec", size_t{0}};
    if (kind == "CronJob") {
      spec = {"spec", size_t{0}, "job_template", size_t{0}, "spec", size_t{0}, "template", size_t{0}, "spec", size_t{0}};
    }
    const Value* at = spec.empty() ? nullptr : ValueAt(object, spec);
    if (at && at->IsMapping()) out.push_back(spec);
    return out;
  }
  Path at;
  CollectPodSpecs(object, at, out, 0);
  return out;
}

std::vector<const Instance*> ProjectModel::OfType(const std::string& type) const {
  std::vector<const Instance*> out;
  for (const auto& inst : instances) {
    if (inst.type == type) out.push_back(&inst);
  }
  return out;
}

namespace {

// Each stage's component (union-find over the stages' ${stage.S.X} reads).
std::map<std::string, int> StageComponents(const std::vector<LintStage>& stages) {
  std::map<std::string, std::string> parent;
  for (const auto& stage : stages) parent[stage.name] = stage.name;
  auto find = [&](std::string s) {
    while (parent[s] != s) s = parent[s];
    return s;
  };
  for (const auto& stage : stages) {
    for (const auto& read : stage.loaded->graph->stage_dependencies) {
      if (parent.count(read)) parent[find(read)] = find(stage.name);
    }
  }
  std::map<std::string, int> ids, out;
  for (const auto& stage : stages) {
    auto [it, inserted] = ids.emplace(find(stage.name), static_cast<int>(ids.size()));
    out[stage.name] = it->second;
  }
  return out;
}

}  // namespace

std::optional<std::string> ProjectModel::ClusterVersion(int component) const {
  auto it = cluster_versions.find(component);
  if (it == cluster_versions.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> ProjectModel::Region(const Instance& inst) const {
  auto it = stage_regions.find(inst.stage->name);
  if (it == stage_regions.end()) return std::nullopt;
  return it->second;
}

std::vector<const Instance*> ProjectModel::OfType(const std::string& type, int component) const {
  std::vector<const Instance*> out;
  for (const auto& inst : instances) {
    if (inst.type == type && inst.component == component) out.push_back(&inst);
  }
  return out;
}

std::set<int> ProjectModel::Components() const {
  std::set<int> out;
  for (const auto& inst : instances) out.insert(inst.component);
  return out;
}

ProjectModel BuildModel(const std::vector<LintStage>& stages) {
  ProjectModel model;
  std::map<std::string, int> components = StageComponents(stages);
  for (const auto& stage : stages) {
    const StageGraph& graph = *stage.loaded->graph;
    for (NodeId id = 0; id < graph.nodes.size(); ++id) {
      const GraphNode& node = graph.nodes[id];
      if (node.kind == NodeKind::Provider && node.module == 0 && node.provider && node.provider->name == "aws") {
        if (auto region = StringAt(stage.evaluation->ResultOf(id), {"region"})) model.stage_regions[stage.name] = *region;
      }
      if ((node.kind != NodeKind::Resource && node.kind != NodeKind::Data) || !node.resource) continue;
      auto& into = node.kind == NodeKind::Resource ? model.instances : model.data;
      for (const InstanceValue& iv : stage.evaluation->InstancesOf(id)) {
        Instance inst;
        inst.stage = &stage;
        inst.node = &node;
        inst.type = node.resource->type;
        inst.address = iv.addr.ToString();
        inst.value = &iv.value;
        inst.component = components[stage.name];
        into.push_back(std::move(inst));
      }
    }
  }
  // Objects point into `instances`, which no longer grows.
  for (const auto& inst : model.instances) {
    if (inst.type.rfind("kubernetes_", 0) == 0) AddObject(model, inst);
    if (inst.type == "aws_eks_cluster" && !model.cluster_versions.count(inst.component)) {
      if (auto version = StringAt(*inst.value, {"version"})) model.cluster_versions[inst.component] = *version;
    }
  }
  return model;
}

}  // namespace strata::lint
