// Kubernetes objects on their own: API versions the cluster no longer serves, DaemonSets on one
// host port, namespaces / service accounts / ConfigMap keys the project never declares, static
// AWS keys, and requests larger than any node group's instance type.
#include <fmt/format.h>

#include <map>
#include <set>

#include "engine/lint/instance_types.h"
#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

struct RemovedApi {
  const char* api_version;
  const char* kind;  // "" for every kind of the version
  int removed_minor;  // Kubernetes 1.N stopped serving it
  const char* use;
};

// Kubernetes' deprecated API migration guide.
const std::vector<RemovedApi>& RemovedApis() {
  static const std::vector<RemovedApi> apis = {
      {"extensions/v1beta1", "Ingress", 22, "networking.k8s.io/v1"},
      {"extensions/v1beta1", "PodSecurityPolicy", 16, "policy/v1beta1 (itself removed in 1.25: use Pod Security Admission)"},
      {"extensions/v1beta1", "NetworkPolicy", 16, "networking.k8s.io/v1"},
      {"extensions/v1beta1", "", 16, "apps/v1"},
      {"apps/v1beta1", "", 16, "apps/v1"},
      {"apps/v1beta2", "", 16, "apps/v1"},
      {"rbac.authorization.k8s.io/v1beta1", "", 22, "rbac.authorization.k8s.io/v1"},
      {"rbac.authorization.k8s.io/v1alpha1", "", 22, "rbac.authorization.k8s.io/v1"},
      {"apiextensions.k8s.io/v1beta1", "", 22, "apiextensions.k8s.io/v1 (with a structural schema)"},
      {"admissionregistration.k8s.io/v1beta1", "", 22, "admissionregistration.k8s.io/v1"},
      {"apiregistration.k8s.io/v1beta1", "", 22, "apiregistration.k8s.io/v1"},
      {"networking.k8s.io/v1beta1", "", 22, "networking.k8s.io/v1"},
      {"storage.k8s.io/v1beta1", "CSIStorageCapacity", 27, "storage.k8s.io/v1"},
      {"storage.k8s.io/v1beta1", "", 22, "storage.k8s.io/v1"},
      {"scheduling.k8s.io/v1beta1", "", 22, "scheduling.k8s.io/v1"},
      {"coordination.k8s.io/v1beta1", "", 22, "coordination.k8s.io/v1"},
      {"certificates.k8s.io/v1beta1", "", 22, "certificates.k8s.io/v1"},
      {"policy/v1beta1", "PodSecurityPolicy", 25, "nothing: PodSecurityPolicy is gone; use Pod Security Admission"},
      {"policy/v1beta1", "", 25, "policy/v1"},
      {"batch/v1beta1", "", 25, "batch/v1"},
      {"discovery.k8s.io/v1beta1", "", 25, "discovery.k8s.io/v1"},
      {"events.k8s.io/v1beta1", "", 25, "events.k8s.io/v1"},
      {"autoscaling/v2beta1", "", 25, "autoscaling/v2"},
      {"autoscaling/v2beta2", "", 26, "autoscaling/v2"},
      {"node.k8s.io/v1beta1", "", 25, "node.k8s.io/v1"},
      {"flowcontrol.apiserver.k8s.io/v1beta1", "", 26, "flowcontrol.apiserver.k8s.io/v1"},
      {"flowcontrol.apiserver.k8s.io/v1beta2", "", 29, "flowcontrol.apiserver.k8s.io/v1"},
  };
  return apis;
}

// The oldest Kubernetes version EKS still offers: what a cluster of unknown version runs at least.
constexpr int kOldestEksMinor = 28;

// "1.30" (or "1.30.2-20240101") → 30; nullopt when not 1.N.
std::optional<int> KubeMinor(const std::string& version) {
  if (version.rfind("1.", 0) != 0) return std::nullopt;
  size_t end = version.find_first_not_of("0123456789", 2);
  std::string digits = version.substr(2, end == std::string::npos ? std::string::npos : end - 2);
  if (digits.empty()) return std::nullopt;
  return std::stoi(digits);
}

void DeprecatedApis(LintContext& ctx) {
  for (const auto& o : ctx.model().objects) {
    if (o.typed || o.api_version.empty()) continue;
    auto version = ctx.model().ClusterVersion(o.instance->component);
    std::optional<int> stated = version ? KubeMinor(*version) : std::nullopt;
    const bool known = stated.has_value();
    const int runs = known ? stated.value() : kOldestEksMinor;
    for (const auto& api : RemovedApis()) {
      if (o.api_version != api.api_version || (*api.kind && o.kind != api.kind)) continue;
      if (runs >= api.removed_minor) {
        std::string cluster = known ? fmt::format("the cluster runs 1.{}", runs)
                                    : fmt::format("every version EKS offers (1.{}+) lacks it", kOldestEksMinor);
        ctx.Report("k8s-deprecated-api", o, {"apiVersion"},
                   fmt::format("{} {} is served by no Kubernetes since 1.{} ({})", o.api_version, o.kind,
                               api.removed_minor, cluster),
                   fmt::format("use {}", api.use));
      }
      break;
    }
  }
}

// The names of a pod spec's fields: Kubernetes' in a manifest, Terraform's in a typed resource.
struct PodFields {
  const char* containers;
  const char* init_containers;
  const char* ports;
  const char* host_port;
  const char* container_port;
  const char* host_network;
  const char* service_account;
};
constexpr PodFields kManifestPod = {"containers", "initContainers", "ports", "hostPort",
                                    "containerPort", "hostNetwork", "serviceAccountName"};
constexpr PodFields kTypedPod = {"container", "init_container", "port", "host_port",
                                 "container_port", "host_network", "service_account_name"};
const PodFields& FieldsOf(const KubeObject& o) { return o.typed ? kTypedPod : kManifestPod; }

// Calls `fn(container, path)` for every container and init container of `spec` (at `spec_path`).
template <typename Fn>
void ForEachContainer(const Value& spec, const Path& spec_path, Fn fn, const PodFields& names = kManifestPod) {
  for (const char* list : {names.init_containers, names.containers}) {
    const Value* containers = ValueAt(spec, {list});
    if (!containers || !containers->IsSequence()) continue;
    for (size_t i = 0; i < containers->AsList().size(); ++i) {
      const Value& c = containers->AsList()[i];
      if (c.IsMapping()) fn(c, Join(spec_path, {list, i}));
    }
  }
}

void HostPorts(LintContext& ctx) {
  std::map<std::string, const KubeObject*> claimed;  // "8080/TCP" → the first DaemonSet
  for (const auto& o : ctx.model().objects) {
    if (o.kind != "DaemonSet") continue;
    std::set<std::string> own;
    for (const Path& spec_path : o.PodSpecs()) {
      const Value& spec = *ValueAt(o.object, spec_path);
      const PodFields& names = FieldsOf(o);
      const Value* host_network = ValueAt(spec, {names.host_network});
      bool on_host = host_network && host_network->IsBool() && host_network->AsBool();
      ForEachContainer(spec, spec_path, [&](const Value& c, const Path& c_path) {
        const Value* ports = ValueAt(c, {names.ports});
        if (!ports || !ports->IsSequence()) return;
        for (size_t j = 0; j < ports->AsList().size(); ++j) {
          const Value& p = ports->AsList()[j];
          const char* field = names.host_port;
          auto port = NumberAt(p, {field});
          if (port && *port == 0) port.reset();  // Terraform's typed default: no host port
          if (!port && on_host) {
            field = names.container_port;
            port = NumberAt(p, {field});
          }
          if (!port) continue;
          std::string key = fmt::format("{}/{}", FormatNumber(*port), StringAt(p, {"protocol"}).value_or("TCP"));
          if (!own.insert(key).second) continue;
          auto [it, inserted] = claimed.emplace(key, &o);
          if (inserted) continue;
          ctx.Report("k8s-hostport-conflict", o, Join(c_path, {names.ports, j, field}),
                     fmt::format("{} claims host port {}, as {} ({}) does: one of them stays Pending on every node",
                                 o.Identity(), key, it->second->Identity(), it->second->instance->address));
        }
      }, names);
    }
  }
}

// The metadata path of an object (typed resources keep metadata in a one-element list).
Path MetadataPath(const KubeObject& o, const char* field) {
  return o.typed ? Path{"metadata", size_t{0}, field} : Path{"metadata", field};
}

// "<component>/<rest>": what a component of stages declares.
std::string InComponent(const KubeObject& o, const std::string& rest) {
  return fmt::format("{}/{}", o.instance->component, rest);
}

void UndeclaredNamespaces(LintContext& ctx) {
  std::set<std::string> declared;
  std::set<int> declaring;  // components that declare namespaces at all
  for (const auto& o : ctx.model().objects) {
    if (o.kind == "Namespace") declared.insert(InComponent(o, o.name)), declaring.insert(o.instance->component);
  }
  static const std::set<std::string> built_in = {"default", "kube-system", "kube-public", "kube-node-lease"};
  for (const auto& o : ctx.model().objects) {
    if (o.ns.empty() || built_in.count(o.ns) || !declaring.count(o.instance->component)) continue;
    if (declared.count(InComponent(o, o.ns))) continue;
    ctx.Report("k8s-undeclared-namespace", o, MetadataPath(o, "namespace"),
               fmt::format("{} is in namespace {}, which no resource of the project declares", o.Identity(), o.ns));
  }
}

void UndeclaredServiceAccounts(LintContext& ctx) {
  std::set<std::string> declared;
  std::set<int> declaring;
  for (const auto& o : ctx.model().objects) {
    if (o.kind == "ServiceAccount") declared.insert(InComponent(o, o.ns + "/" + o.name)), declaring.insert(o.instance->component);
  }
  for (const auto& o : ctx.model().objects) {
    if (!declaring.count(o.instance->component)) continue;
    for (const Path& spec_path : o.PodSpecs()) {
      const Value& spec = *ValueAt(o.object, spec_path);
      for (const char* field : {FieldsOf(o).service_account, o.typed ? "" : "serviceAccount"}) {
        if (!*field) continue;
        auto sa = StringAt(spec, {field});
        if (!sa || sa->empty() || *sa == "default") continue;
        if (!declared.count(InComponent(o, o.ns + "/" + *sa))) {
          ctx.Report("k8s-undeclared-service-account", o, Join(spec_path, {field}),
                     fmt::format("{} runs as service account {}/{}, which no resource of the project declares", o.Identity(),
                                 o.ns, *sa));
        }
        break;
      }
    }
  }
}

bool OptionalRef(const Value& ref) {
  const Value* optional = ValueAt(ref, {"optional"});
  return optional && optional->IsBool() && optional->AsBool();
}

void UndeclaredConfigMapKeys(LintContext& ctx) {
  std::map<std::string, const KubeObject*> maps;  // "component/ns/name"
  std::set<int> declaring;
  for (const auto& o : ctx.model().objects) {
    if (o.kind == "ConfigMap") maps.emplace(InComponent(o, o.ns + "/" + o.name), &o), declaring.insert(o.instance->component);
  }
  // Reports a missing map or key; `key` empty: the whole map is read.
  auto check = [&](const KubeObject& o, const Path& at, const std::string& name, const std::string& key, const Path& key_path) {
    auto it = maps.find(InComponent(o, o.ns + "/" + name));
    if (it == maps.end()) {
      ctx.Report("k8s-undeclared-configmap-key", o, at,
                 fmt::format("{} reads ConfigMap {}/{}, which no resource of the project declares", o.Identity(), o.ns, name),
                 "declare the ConfigMap, or fix its name");
      return;
    }
    if (key.empty()) return;
    const KubeObject& map = *it->second;
    for (const char* field : {"data", "binaryData", "binary_data"}) {
      const Value* data = ValueAt(map.object, {field});
      if (data && !data->IsKnown()) return;
      if (data && data->IsMapping() && data->AsMap().count(key)) return;
    }
    ctx.Report("k8s-undeclared-configmap-key", o, key_path,
               fmt::format("{} reads key {} of ConfigMap {}/{}, which has no such key", o.Identity(), key, o.ns, name));
  };
  for (const auto& o : ctx.model().objects) {
    if (!declaring.count(o.instance->component)) continue;
    for (const Path& spec_path : o.PodSpecs()) {
      const Value& spec = *ValueAt(o.object, spec_path);
      ForEachContainer(spec, spec_path, [&](const Value& c, const Path& c_path) {
        if (const Value* env = ValueAt(c, {"env"}); env && env->IsSequence()) {
          for (size_t i = 0; i < env->AsList().size(); ++i) {
            const Value* ref = ValueAt(env->AsList()[i], {"valueFrom", "configMapKeyRef"});
            if (!ref || OptionalRef(*ref)) continue;
            auto name = StringAt(*ref, {"name"});
            auto key = StringAt(*ref, {"key"});
            Path ref_path = Join(c_path, {"env", i, "valueFrom", "configMapKeyRef"});
            if (name && key) check(o, Join(ref_path, {"name"}), *name, *key, Join(ref_path, {"key"}));
          }
        }
        if (const Value* from = ValueAt(c, {"envFrom"}); from && from->IsSequence()) {
          for (size_t i = 0; i < from->AsList().size(); ++i) {
            const Value* ref = ValueAt(from->AsList()[i], {"configMapRef"});
            if (!ref || OptionalRef(*ref)) continue;
            Path name_path = Join(c_path, {"envFrom", i, "configMapRef", "name"});
            if (auto name = StringAt(*ref, {"name"})) check(o, name_path, *name, "", name_path);
          }
        }
      });
      if (const Value* volumes = ValueAt(spec, {"volumes"}); volumes && volumes->IsSequence()) {
        for (size_t i = 0; i < volumes->AsList().size(); ++i) {
          const Value* ref = ValueAt(volumes->AsList()[i], {"configMap"});
          if (!ref || OptionalRef(*ref)) continue;
          auto name = StringAt(*ref, {"name"});
          if (!name) continue;
          Path ref_path = Join(spec_path, {"volumes", i, "configMap"});
          check(o, Join(ref_path, {"name"}), *name, "", {});
          const Value* items = ValueAt(*ref, {"items"});
          if (!items || !items->IsSequence()) continue;
          for (size_t j = 0; j < items->AsList().size(); ++j) {
            if (auto key = StringAt(items->AsList()[j], {"key"}); key && maps.count(InComponent(o, o.ns + "/" + *name))) {
              check(o, Join(ref_path, {"name"}), *name, *key, Join(ref_path, {"items", j, "key"}));
            }
          }
        }
      }
    }
  }
}

bool AwsKeyName(const std::string& name) {
  std::string lower = LowerCase(name);
  return lower == "aws_access_key_id" || lower == "aws_secret_access_key";
}

void StaticAwsKeys(LintContext& ctx) {
  for (const auto& o : ctx.model().objects) {
    if (o.kind == "Secret") {
      for (const char* field : {"stringData", "data", "string_data", "binary_data"}) {
        const Value* data = ValueAt(o.object, {field});
        if (!data || !data->IsMapping()) continue;
        for (const auto& [key, value] : data->AsMap()) {
          bool file = value.IsString() && value.AsString().find("aws_secret_access_key") != std::string::npos;
          if (AwsKeyName(key) || file) {
            ctx.ReportKey("k8s-static-aws-keys", o, {field, key},
                       fmt::format("{} holds a static AWS key ({})", o.Identity(), key));
            break;
          }
        }
      }
    }
    for (const Path& spec_path : o.PodSpecs()) {
      ForEachContainer(*ValueAt(o.object, spec_path), spec_path, [&](const Value& c, const Path& c_path) {
        const Value* env = ValueAt(c, {"env"});
        if (!env || !env->IsSequence()) return;
        for (size_t i = 0; i < env->AsList().size(); ++i) {
          auto name = StringAt(env->AsList()[i], {"name"});
          if (name && AwsKeyName(*name)) {
            ctx.Report("k8s-static-aws-keys", o, Join(c_path, {"env", i, "name"}),
                       fmt::format("a container of {} gets {} from its env", o.Identity(), *name));
            return;
          }
        }
      });
    }
  }
}

// A CPU quantity ("2", "500m", 1.5) in cores.
std::optional<double> CpuCores(const Value& v) {
  if (v.IsNumber()) return v.AsNumber();
  if (!v.IsString() || v.AsString().empty()) return std::nullopt;
  std::string s = v.AsString();
  double scale = 1;
  if (s.back() == 'm') s.pop_back(), scale = 0.001;
  try {
    size_t used = 0;
    double d = std::stod(s, &used);
    if (used == s.size()) return d * scale;
  } catch (...) {
  }
  return std::nullopt;
}

// Requests against the node groups of the same component of stages.
void NodeCapacityIn(LintContext& ctx, int component) {
  int max_cpu = 0, max_gpu = 0;
  bool any = false;
  for (const Instance* group : ctx.model().OfType("aws_eks_node_group", component)) {
    const Value* types = ValueAt(*group->value, {"instance_types"});
    if (!types || !types->IsWhollyKnown() || !types->IsSequence()) return;  // a group we cannot size
    for (const auto& t : types->AsList()) {
      auto shape = t.IsString() ? ShapeOf(t.AsString()) : std::nullopt;
      if (!shape) return;
      max_cpu = std::max(max_cpu, shape->vcpus);
      max_gpu = std::max(max_gpu, shape->gpus);
      any = true;
    }
  }
  if (!any) return;
  for (const auto& o : ctx.model().objects) {
    if (o.instance->component != component) continue;
    for (const Path& spec_path : o.PodSpecs()) {
      ForEachContainer(*ValueAt(o.object, spec_path), spec_path, [&](const Value& c, const Path& c_path) {
        for (const char* side : {"requests", "limits"}) {
          const Value* cpu = ValueAt(c, {"resources", side, "cpu"});
          if (auto cores = cpu ? CpuCores(*cpu) : std::nullopt; cores && *cores > max_cpu) {
            ctx.Report("k8s-exceeds-node-capacity", o, Join(c_path, {"resources", side, "cpu"}),
                       fmt::format("a container of {} asks {} CPUs; the largest node group instance has {} vCPUs",
                                   o.Identity(), FormatNumber(*cores), max_cpu));
            return;
          }
          auto gpus = NumberAt(c, {"resources", side, "nvidia.com/gpu"});
          if (gpus && *gpus > max_gpu) {
            ctx.Report("k8s-exceeds-node-capacity", o, Join(c_path, {"resources", side, "nvidia.com/gpu"}),
                       fmt::format("a container of {} asks {} GPUs; the largest node group instance has {}", o.Identity(),
                                   FormatNumber(*gpus), max_gpu));
            return;
          }
        }
      });
    }
  }
}

}  // namespace

void CheckKubernetes(LintContext& ctx) {
  auto node_capacity = [&] {
    for (int component : ctx.model().Components()) NodeCapacityIn(ctx, component);
  };
  DeprecatedApis(ctx);
  HostPorts(ctx);
  UndeclaredNamespaces(ctx);
  UndeclaredServiceAccounts(ctx);
  UndeclaredConfigMapKeys(ctx);
  StaticAwsKeys(ctx);
  node_capacity();
}

}  // namespace strata::lint
