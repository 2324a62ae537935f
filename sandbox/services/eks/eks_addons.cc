#include "sandbox/services/eks/eks_addons.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_common.h"
#include "sandbox/services/eks/eks_updates.h"

namespace strata::sandbox::eks {

namespace {

//! An add-on EKS publishes, and its versions per Kubernetes version (newest, the default,
//! first; none: not offered for that version).
struct CatalogEntry {
  std::string name;
  std::string type;   //!< "networking", "storage", "security", "observability"
  std::string owner;  //!< "aws", or "community" for the community add-ons EKS builds
  bool requires_iam_permissions;
  std::vector<std::string> (*versions)(const std::string& kubernetes_version);
};

std::vector<std::string> VpcCniVersions(const std::string&) {
  return {"v1.19.2-eksbuild.1", "v1.19.0-eksbuild.1", "v1.18.6-eksbuild.1"};
}

std::vector<std::string> CorednsVersions(const std::string& k8s) {
  int minor = MinorOf(k8s);
  if (minor <= 28) return {"v1.10.1-eksbuild.17", "v1.10.1-eksbuild.13"};
  if (minor >= 33) return {"v1.12.1-eksbuild.2"};
  return {"v1.11.4-eksbuild.2", "v1.11.3-eksbuild.1"};
}

std::vector<std::string> KubeProxyVersions(const std::string& k8s) {
  static const std::map<std::string, std::vector<std::string>> kByVersion = {
      {"1.28", {"v1.28.15-eksbuild.4", "v1.28.12-eksbuild.2"}},
      {"1.29", {"v1.29.10-eksbuild.3", "v1.29.7-eksbuild.2"}},
      {"1.30", {"v1.30.6-eksbuild.3", "v1.30.3-eksbuild.2"}},
      {"1.31", {"v1.31.3-eksbuild.2", "v1.31.2-eksbuild.3"}},
      {"1.32", {"v1.32.0-eksbuild.2"}},
      {"1.33", {"v1.33.0-eksbuild.2"}}};
  auto it = kByVersion.find(k8s);
  return it == kByVersion.end() ? std::vector<std::string>{} : it->second;
}

std::vector<std::string> EbsCsiVersions(const std::string&) {
  return {"v1.38.1-eksbuild.1", "v1.37.0-eksbuild.1"};
}

std::vector<std::string> EfsCsiVersions(const std::string&) { return {"v2.1.4-eksbuild.1"}; }

std::vector<std::string> MountpointS3Versions(const std::string& k8s) {
  if (MinorOf(k8s) >= 30) return {"v1.13.0-eksbuild.1", "v1.11.0-eksbuild.1"};
  return {"v1.11.0-eksbuild.1"};
}

std::vector<std::string> PodIdentityVersions(const std::string&) { return {"v1.3.4-eksbuild.1"}; }

std::vector<std::string> SnapshotControllerVersions(const std::string&) {
  return {"v8.1.0-eksbuild.2"};
}

std::vector<std::string> CloudWatchObservabilityVersions(const std::string&) {
  return {"v3.6.0-eksbuild.2", "v3.3.1-eksbuild.1"};
}

std::vector<std::string> GuardDutyAgentVersions(const std::string&) { return {"v1.10.0-eksbuild.2"}; }

std::vector<std::string> AdotVersions(const std::string& k8s) {
  if (MinorOf(k8s) >= 33) return {};  // not yet offered for the newest version
  return {"v0.117.0-eksbuild.1", "v0.109.0-eksbuild.2"};
}

std::vector<std::string> NodeMonitoringAgentVersions(const std::string&) { return {"v1.2.0-eksbuild.1"}; }

std::vector<std::string> NetworkFlowMonitorVersions(const std::string&) { return {"v1.0.1-eksbuild.2"}; }

std::vector<std::string> MetricsServerVersions(const std::string&) {
  return {"v0.7.2-eksbuild.3", "v0.7.2-eksbuild.1"};
}

std::vector<std::string> KubeStateMetricsVersions(const std::string&) { return {"v2.14.0-eksbuild.1"}; }

std::vector<std::string> NodeExporterVersions(const std::string&) { return {"v1.8.2-eksbuild.2"}; }

std::vector<std::string> CertManagerVersions(const std::string&) { return {"v1.17.1-eksbuild.1"}; }

std::vector<std::string> ExternalDnsVersions(const std::string&) { return {"v0.15.1-eksbuild.1"}; }

std::vector<std::string> FluentBitVersions(const std::string&) { return {"v3.2.2-eksbuild.1"}; }

const std::vector<CatalogEntry>& Catalog() {
  static const std::vector<CatalogEntry> kCatalog = {
      {"vpc-cni", "networking", "aws", true, VpcCniVersions},
      {"coredns", "networking", "aws", false, CorednsVersions},
      {"kube-proxy", "networking", "aws", false, KubeProxyVersions},
      {"aws-ebs-csi-driver", "storage", "aws", true, EbsCsiVersions},
      {"aws-efs-csi-driver", "storage", "aws", true, EfsCsiVersions},
      {"aws-mountpoint-s3-csi-driver", "storage", "aws", true, MountpointS3Versions},
      {"snapshot-controller", "storage", "aws", false, SnapshotControllerVersions},
      {"eks-pod-identity-agent", "security", "aws", false, PodIdentityVersions},
      {"aws-guardduty-agent", "security", "aws", false, GuardDutyAgentVersions},
      {"amazon-cloudwatch-observability", "observability", "aws", true, CloudWatchObservabilityVersions},
      {"adot", "observability", "aws", true, AdotVersions},
      {"eks-node-monitoring-agent", "observability", "aws", false, NodeMonitoringAgentVersions},
      {"aws-network-flow-monitoring-agent", "observability", "aws", true, NetworkFlowMonitorVersions},
      {"metrics-server", "observability", "community", false, MetricsServerVersions},
      {"kube-state-metrics", "observability", "community", false, KubeStateMetricsVersions},
      {"prometheus-node-exporter", "observability", "community", false, NodeExporterVersions},
      {"cert-manager", "security", "community", false, CertManagerVersions},
      {"external-dns", "networking", "community", true, ExternalDnsVersions},
      {"fluent-bit", "observability", "community", false, FluentBitVersions}};
  return kCatalog;
}

const CatalogEntry* FindEntry(const std::string& name) {
  for (const CatalogEntry& entry : Catalog()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::string AddonNotFound(const std::string& name, const std::string& cluster) {
  return "No addon: " + name + " found in cluster: " + cluster;
}

//! Whether `v` is shaped as EKS's add-on versions are: v<n>.<n>.<n>-eksbuild.<n>.
bool IsEksBuildVersion(const std::string& v) {
  size_t at = 0;
  auto digits = [&] {
    size_t start = at;
    while (at < v.size() && std::isdigit(static_cast<unsigned char>(v[at]))) ++at;
    return at > start;
  };
  auto literal = [&](const char* text) {
    size_t n = std::char_traits<char>::length(text);
    if (v.compare(at, n, text) != 0) return false;
    at += n;
    return true;
  };
  return literal("v") && digits() && literal(".") && digits() && literal(".") && digits() && literal("-eksbuild.") &&
         digits() && at == v.size();
}

//! The add-on version to install: the default for the cluster's version when none is
//! asked; a version outside the catalogue is accepted when it is shaped as EKS's are.
std::string CheckedAddonVersion(const CatalogEntry& entry,
                                const std::optional<std::string>& requested,
                                const std::string& k8s) {
  std::vector<std::string> known = entry.versions(k8s);
  if (known.empty()) {
    ThrowInvalidParameter("Addon " + entry.name + " specified is not supported in " + k8s +
                          " kubernetes version");
  }
  if (!requested || requested->empty()) return known.front();
  if (std::find(known.begin(), known.end(), *requested) == known.end() && !IsEksBuildVersion(*requested)) {
    ThrowInvalidParameter("Addon version specified is not supported");
  }
  return *requested;
}

void CheckRoleArnShape(const std::string& arn) {
  if (arn.compare(0, 13, "arn:aws:iam::") != 0 || arn.find(":role/") == std::string::npos) {
    ThrowInvalidParameter("serviceAccountRoleArn " + arn + " is not a valid IAM role ARN.");
  }
}

void CheckResolveConflicts(const std::optional<std::string>& value) {
  if (value && *value != "OVERWRITE" && *value != "NONE" && *value != "PRESERVE") {
    ThrowInvalidParameter("resolveConflicts must be one of OVERWRITE, NONE, PRESERVE.");
  }
}

void CheckConfigurationValues(const std::string& values) {
  // AWS takes JSON or YAML; a document that claims to be JSON must parse as an object.
  size_t first = values.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || values[first] != '{') return;
  Json parsed = Json::parse(values, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    ThrowInvalidParameter(
        "ConfigurationValue provided in request is not supported: the JSON is not valid");
  }
}

Json AddonAnswer(const ServiceContext& ctx, const Json& doc) {
  return Json{{"addon", RenderAddon(ctx, doc)}};
}

Json RequireAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name) {
  RequireCluster(ctx, cluster);
  std::optional<Json> doc = LoadAddon(ctx, cluster, name);
  if (!doc) ThrowNotFound(AddonNotFound(name, cluster));
  return *doc;
}

Json AddonInfo(const CatalogEntry& entry, const std::optional<std::string>& k8s) {
  std::vector<std::string> clusters =
      k8s ? std::vector<std::string>{*k8s} : SupportedKubernetesVersions();
  // Every version once, with the cluster versions it runs on.
  std::vector<std::string> order;
  std::map<std::string, Json> compatibilities;
  for (const std::string& cluster : clusters) {
    std::vector<std::string> versions = entry.versions(cluster);
    for (size_t i = 0; i < versions.size(); ++i) {
      if (!compatibilities.count(versions[i])) order.push_back(versions[i]);
      compatibilities[versions[i]].push_back(
          {{"clusterVersion", cluster}, {"platformVersions", {"*"}}, {"defaultVersion", i == 0}});
    }
  }
  Json versions = Json::array();
  for (const std::string& version : order) {
    versions.push_back({{"addonVersion", version},
                        {"architecture", {"amd64", "arm64"}},
                        {"computeTypes", {"ec2"}},
                        {"compatibilities", compatibilities[version]},
                        {"requiresConfiguration", false},
                        {"requiresIamPermissions", entry.requires_iam_permissions}});
  }
  return Json{{"addonName", entry.name},
              {"type", entry.type},
              {"addonVersions", versions},
              {"publisher", "eks"},
              {"owner", entry.owner}};
}

}  // namespace

std::optional<Json> LoadAddon(ServiceContext& ctx, const std::string& cluster,
                              const std::string& name) {
  std::string key = ChildKey(ctx, cluster, name);
  std::optional<Json> doc = ctx.world.Get(kAddonKind, key);
  if (!doc) return std::nullopt;
  if (PhaseOf(ctx, *doc) != Phase::Gone) return doc;
  EraseUpdates(ctx, UpdateTarget{cluster, "", name});
  ctx.world.Erase(kAddonKind, key);
  return std::nullopt;
}

Json RenderAddon(const ServiceContext& ctx, const Json& doc) {
  Json view = doc.at("view");
  view["status"] = StatusWord(PhaseOf(ctx, doc));
  return view;
}

void SaveAddon(ServiceContext& ctx, const Json& doc) {
  ctx.world.Put(
      kAddonKind,
      ChildKey(ctx, doc.at("cluster").get<std::string>(), doc.at("name").get<std::string>()), doc);
}

void DeleteAddonsOf(ServiceContext& ctx, const std::string& cluster, Millis delay) {
  Millis addon_delay = std::min(delay, ctx.settings.addon_delay);
  for (const std::string& key : ChildKeys(ctx, kAddonKind, cluster)) {
    std::optional<Json> doc = LoadAddon(ctx, cluster, key.substr(key.rfind('/') + 1));
    if (!doc || PhaseOf(ctx, *doc) == Phase::Deleting) continue;
    BeginDeleting(ctx, *doc, addon_delay);
    SaveAddon(ctx, *doc);
  }
}

Response CreateAddon(ServiceContext& ctx, const std::string& cluster) {
  Json body = ObjectBody(ctx);
  std::string name = RequiredString(body, "addonName");
  Json cluster_doc = RequireCluster(ctx, cluster);
  std::optional<std::string> token = OptionalString(body, "clientRequestToken");
  if (std::optional<Json> existing = LoadAddon(ctx, cluster, name)) {
    if (token && existing->value("clientRequestToken", "") == *token) {
      return JsonResponse(ctx, AddonAnswer(ctx, *existing));
    }
    ThrowInUse("Addon already exists.");
  }
  if (PhaseOf(ctx, cluster_doc) != Phase::Active) {
    ThrowInvalidRequest("Cluster '" + cluster + "' is not in ACTIVE status");
  }
  const CatalogEntry* entry = FindEntry(name);
  std::string k8s = cluster_doc["view"]["version"].get<std::string>();
  if (entry == nullptr) {
    ThrowInvalidParameter("Addon " + name + " specified is not supported in " + k8s +
                          " kubernetes version");
  }
  std::string version = CheckedAddonVersion(*entry, OptionalString(body, "addonVersion"), k8s);
  CheckResolveConflicts(OptionalString(body, "resolveConflicts"));

  double now = NowEpoch(ctx);
  Json view = {
      {"addonName", name},
      {"clusterName", cluster},
      {"addonVersion", version},
      {"health", {{"issues", Json::array()}}},
      {"addonArn", EksArn(ctx, "addon/" + cluster + "/" + name + "/" + ctx.world.NewUuid())},
      {"createdAt", now},
      {"modifiedAt", now},
      {"tags",
       CheckedTags(OptionalStringMap(body, "tags").value_or(std::map<std::string, std::string>{}),
                   "InvalidParameterException")}};
  if (auto role = OptionalString(body, "serviceAccountRoleArn"); role && !role->empty()) {
    CheckRoleArnShape(*role);
    view["serviceAccountRoleArn"] = *role;
  }
  if (auto values = OptionalString(body, "configurationValues"); values && !values->empty()) {
    CheckConfigurationValues(*values);
    view["configurationValues"] = *values;
  }
  Json doc = {{"region", Region(ctx)},
              {"cluster", cluster},
              {"name", name},
              {"lifecycle", NewLifecycle(ctx, ctx.settings.addon_delay)},
              {"view", view}};
  if (token) doc["clientRequestToken"] = *token;
  SaveAddon(ctx, doc);
  return JsonResponse(ctx, AddonAnswer(ctx, doc));
}

Response DescribeAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name) {
  return JsonResponse(ctx, AddonAnswer(ctx, RequireAddon(ctx, cluster, name)));
}

Response ListAddons(ServiceContext& ctx, const std::string& cluster) {
  RequireCluster(ctx, cluster);
  std::vector<std::string> names;
  for (const std::string& key : ChildKeys(ctx, kAddonKind, cluster)) {
    std::string name = key.substr(key.rfind('/') + 1);
    if (LoadAddon(ctx, cluster, name)) names.push_back(name);
  }
  return JsonResponse(ctx, Paginate(ctx, names, "addons"));
}

Response UpdateAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name) {
  Json body = ObjectBody(ctx);
  Json doc = RequireAddon(ctx, cluster, name);
  Phase phase = PhaseOf(ctx, doc);
  if (phase != Phase::Active) {
    ThrowInUse("Addon " + name + " cannot be updated as it is currently in " + StatusWord(phase) +
               " state");
  }
  Json cluster_doc = RequireCluster(ctx, cluster);
  Json& view = doc["view"];
  Json params = Json::array();
  if (auto version = OptionalString(body, "addonVersion")) {
    view["addonVersion"] = CheckedAddonVersion(*FindEntry(name), version,
                                               cluster_doc["view"]["version"].get<std::string>());
    params.push_back(UpdateParam("AddonVersion", view["addonVersion"].get<std::string>()));
  }
  if (auto role = OptionalString(body, "serviceAccountRoleArn")) {
    if (role->empty()) {
      view.erase("serviceAccountRoleArn");
    } else {
      CheckRoleArnShape(*role);
      view["serviceAccountRoleArn"] = *role;
    }
    params.push_back(UpdateParam("ServiceAccountRoleArn", *role));
  }
  if (auto resolve = OptionalString(body, "resolveConflicts")) {
    CheckResolveConflicts(resolve);
    params.push_back(UpdateParam("ResolveConflicts", *resolve));
  }
  if (auto values = OptionalString(body, "configurationValues")) {
    if (values->empty()) {
      view.erase("configurationValues");
    } else {
      CheckConfigurationValues(*values);
      view["configurationValues"] = *values;
    }
    params.push_back(UpdateParam("ConfigurationValues", *values));
  }
  view["modifiedAt"] = NowEpoch(ctx);
  BeginUpdating(ctx, doc, ctx.settings.addon_delay);
  SaveAddon(ctx, doc);
  Json update = StartUpdate(ctx, UpdateTarget{cluster, "", name}, "AddonUpdate", params,
                            ctx.settings.addon_delay);
  return JsonResponse(ctx, Json{{"update", update}});
}

Response DeleteAddon(ServiceContext& ctx, const std::string& cluster, const std::string& name) {
  Json doc = RequireAddon(ctx, cluster, name);
  if (PhaseOf(ctx, doc) != Phase::Deleting) {
    BeginDeleting(ctx, doc, ctx.settings.addon_delay);
    SaveAddon(ctx, doc);
  }
  return JsonResponse(ctx, AddonAnswer(ctx, doc));
}

Response DescribeAddonVersions(ServiceContext& ctx) {
  std::optional<std::string> k8s;
  std::optional<std::string> only;
  std::set<std::string> types, owners, publishers;  // each: empty means any
  for (const auto& [key, value] : ctx.request.query) {
    if (key == "kubernetesVersion") k8s = value;
    if (key == "addonName") only = value;
    if (key == "types") types.insert(value);
    if (key == "owners") owners.insert(value);
    if (key == "publishers") publishers.insert(value);
  }
  auto admits = [](const std::set<std::string>& wanted, const std::string& value) {
    return wanted.empty() || wanted.count(value) > 0;
  };
  if (k8s) {
    const std::vector<std::string>& supported = SupportedKubernetesVersions();
    if (std::find(supported.begin(), supported.end(), *k8s) == supported.end()) {
      ThrowInvalidParameter("unsupported Kubernetes version " + *k8s);
    }
  }
  std::vector<std::string> names;
  for (const CatalogEntry& entry : Catalog()) {
    if (only && entry.name != *only) continue;
    if (k8s && entry.versions(*k8s).empty()) continue;
    if (!admits(types, entry.type) || !admits(owners, entry.owner) || !admits(publishers, "eks")) continue;
    names.push_back(entry.name);
  }
  Json page = Paginate(ctx, names, "addons");
  Json addons = Json::array();
  for (const Json& name : page["addons"])
    addons.push_back(AddonInfo(*FindEntry(name.get<std::string>()), k8s));
  page["addons"] = addons;
  return JsonResponse(ctx, page);
}

}  // namespace strata::sandbox::eks
