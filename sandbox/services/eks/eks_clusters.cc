#include "sandbox/services/eks/eks_clusters.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "engine/base/base64.h"
#include "sandbox/caller_identity.h"
#include "sandbox/services/ec2/ec2_security_groups.h"
#include "sandbox/services/eks/eks_access_entries.h"
#include "sandbox/services/eks/eks_addons.h"
#include "sandbox/services/eks/eks_common.h"
#include "sandbox/services/eks/eks_nodegroups.h"
#include "sandbox/services/eks/eks_updates.h"
#include "sandbox/services/eks/eks_world_refs.h"

namespace strata::sandbox::eks {

namespace {

const std::vector<std::string> kLogTypes = {"api", "audit", "authenticator", "controllerManager",
                                            "scheduler"};

void CheckVersion(const std::string& version) {
  const std::vector<std::string>& supported = SupportedKubernetesVersions();
  if (std::find(supported.begin(), supported.end(), version) == supported.end()) {
    ThrowInvalidParameter("unsupported Kubernetes version " + version);
  }
}

std::string ClusterNotFound(const std::string& name) {
  return "No cluster found for name: " + name + ".";
}

// --- logging: the API answers enabled and disabled types as two groups --------------------

Json LoggingView(const std::set<std::string>& enabled) {
  Json on = Json::array();
  Json off = Json::array();
  for (const std::string& type : kLogTypes) (enabled.count(type) ? on : off).push_back(type);
  Json groups = Json::array();
  if (!on.empty()) groups.push_back({{"types", on}, {"enabled", true}});
  if (!off.empty()) groups.push_back({{"types", off}, {"enabled", false}});
  return Json{{"clusterLogging", groups}};
}

std::set<std::string> EnabledLogTypes(const Json& logging_view) {
  std::set<std::string> enabled;
  for (const Json& group : logging_view.value("clusterLogging", Json::array())) {
    if (!group.value("enabled", false)) continue;
    for (const Json& type : group.value("types", Json::array()))
      enabled.insert(type.get<std::string>());
  }
  return enabled;
}

void ApplyLoggingRequest(const Json& logging, std::set<std::string>& enabled) {
  const Json* groups = OptionalArray(logging, "clusterLogging", "logging.");
  if (groups == nullptr) return;
  for (const Json& group : *groups) {
    if (!group.is_object())
      ThrowInvalidParameter("logging.clusterLogging entries must be objects.");
    std::vector<std::string> types = OptionalStringList(group, "types", "logging.clusterLogging.")
                                         .value_or(std::vector<std::string>{});
    bool on = OptionalBool(group, "enabled", "logging.clusterLogging.").value_or(false);
    for (const std::string& type : types) {
      if (std::find(kLogTypes.begin(), kLogTypes.end(), type) == kLogTypes.end()) {
        ThrowInvalidParameter("Unknown log type " + type +
                              ": valid types are api, audit, authenticator, controllerManager "
                              "and scheduler.");
      }
      if (on) {
        enabled.insert(type);
      } else {
        enabled.erase(type);
      }
    }
  }
}

// --- networking -----------------------------------------------------------------------------

bool ParseIpv4Cidr(const std::string& text, uint32_t& address, int& prefix) {
  unsigned a, b, c, d;
  int n;
  char tail;
  if (std::sscanf(text.c_str(), "%u.%u.%u.%u/%d%c", &a, &b, &c, &d, &n, &tail) != 5) return false;
  if (a > 255 || b > 255 || c > 255 || d > 255 || n < 0 || n > 32) return false;
  address = (a << 24) | (b << 16) | (c << 8) | d;
  prefix = n;
  return true;
}

bool Within(uint32_t address, uint32_t network, int prefix) {
  uint32_t mask = prefix == 0 ? 0 : ~uint32_t{0} << (32 - prefix);
  return (address & mask) == (network & mask);
}

void CheckServiceCidr(const std::string& cidr) {
  uint32_t address = 0;
  int prefix = 0;
  bool valid = ParseIpv4Cidr(cidr, address, prefix) && prefix >= 12 && prefix <= 24 &&
               (Within(address, 0x0A000000u, 8) || Within(address, 0xAC100000u, 12) ||
                Within(address, 0xC0A80000u, 16));
  if (!valid) {
    ThrowInvalidParameter("The specified serviceIpv4Cidr " + cidr +
                          " is invalid: it must be within 10.0.0.0/8, 172.16.0.0/12 or "
                          "192.168.0.0/16, with a prefix length between /12 and /24.");
  }
}

Json NetworkConfigView(ServiceContext& ctx, const Json* request) {
  Json empty = Json::object();
  const Json& config = request ? *request : empty;
  std::string family =
      OptionalString(config, "ipFamily", "kubernetesNetworkConfig.").value_or("ipv4");
  if (family != "ipv4" && family != "ipv6") {
    ThrowInvalidParameter("kubernetesNetworkConfig.ipFamily must be ipv4 or ipv6.");
  }
  Json view = {{"ipFamily", family}, {"elasticLoadBalancing", {{"enabled", false}}}};
  if (family == "ipv6") {
    view["serviceIpv6Cidr"] = "fd" + ctx.world.RandomString(2, "0123456789abcdef") + ":" +
                              ctx.world.RandomString(4, "0123456789abcdef") + ":" +
                              ctx.world.RandomString(4, "0123456789abcdef") + "::/108";
    return view;
  }
  std::string cidr = OptionalString(config, "serviceIpv4Cidr", "kubernetesNetworkConfig.")
                         .value_or("172.20.0.0/16");
  CheckServiceCidr(cidr);
  view["serviceIpv4Cidr"] = cidr;
  return view;
}

void CheckPublicCidrs(const std::vector<std::string>& cidrs) {
  for (const std::string& cidr : cidrs) {
    uint32_t address = 0;
    int prefix = 0;
    if (!ParseIpv4Cidr(cidr, address, prefix)) {
      ThrowInvalidParameter("The public access CIDR " + cidr + " is not a valid IPv4 CIDR block.");
    }
  }
}

//! Subnets must exist, share a VPC and span two availability zones; returns the VPC.
std::string CheckClusterSubnets(const ServiceContext& ctx, const std::vector<std::string>& ids) {
  std::set<std::string> zones;
  std::string vpc;
  for (const std::string& id : ids) {
    std::optional<SubnetRef> subnet = FindSubnet(ctx, id);
    if (!subnet) ThrowInvalidParameter("The subnet ID '" + id + "' does not exist");
    if (!vpc.empty() && subnet->vpc_id != vpc) {
      ThrowInvalidParameter("Subnets specified must belong to the same VPC.");
    }
    vpc = subnet->vpc_id;
    zones.insert(subnet->availability_zone);
  }
  if (zones.size() < 2) {
    ThrowInvalidParameter("Subnets specified must be in at least two different AZs");
  }
  return vpc;
}

void CheckSecurityGroups(const ServiceContext& ctx, const std::vector<std::string>& ids) {
  std::vector<std::string> missing;
  for (const std::string& id : ids) {
    if (!SecurityGroupExists(ctx, id)) missing.push_back(id);
  }
  if (missing.empty()) return;
  std::string list;
  for (const std::string& id : missing) list += (list.empty() ? "" : ", ") + id;
  ThrowInvalidParameter("Security group(s) [" + list + "] do not exist");
}

Json VpcConfigView(ServiceContext& ctx, const Json& request) {
  const std::string label = "resourcesVpcConfig.";
  std::vector<std::string> subnets =
      OptionalStringList(request, "subnetIds", label).value_or(std::vector<std::string>{});
  std::vector<std::string> groups =
      OptionalStringList(request, "securityGroupIds", label).value_or(std::vector<std::string>{});
  std::string vpc = CheckClusterSubnets(ctx, subnets);
  CheckSecurityGroups(ctx, groups);
  bool public_access = OptionalBool(request, "endpointPublicAccess", label).value_or(true);
  bool private_access = OptionalBool(request, "endpointPrivateAccess", label).value_or(false);
  if (!public_access && !private_access) {
    ThrowInvalidParameter(
        "Cluster must have at least one of public or private endpoint access enabled.");
  }
  std::vector<std::string> cidrs = OptionalStringList(request, "publicAccessCidrs", label)
                                       .value_or(std::vector<std::string>{"0.0.0.0/0"});
  CheckPublicCidrs(cidrs);
  return Json{{"subnetIds", subnets},
              {"securityGroupIds", groups},
              {"vpcId", vpc},
              {"endpointPublicAccess", public_access},
              {"endpointPrivateAccess", private_access},
              {"publicAccessCidrs", cidrs}};
}

Json AccessConfigView(const Json* request) {
  Json empty = Json::object();
  const Json& config = request ? *request : empty;
  std::string mode =
      OptionalString(config, "authenticationMode", "accessConfig.").value_or("CONFIG_MAP");
  if (mode != "CONFIG_MAP" && mode != "API" && mode != "API_AND_CONFIG_MAP") {
    ThrowInvalidParameter(
        "accessConfig.authenticationMode must be one of CONFIG_MAP, API, API_AND_CONFIG_MAP.");
  }
  bool bootstrap = OptionalBool(config, "bootstrapClusterCreatorAdminPermissions", "accessConfig.")
                       .value_or(true);
  return Json{{"authenticationMode", mode}, {"bootstrapClusterCreatorAdminPermissions", bootstrap}};
}

//! An encryptionConfig as EKS takes it: one entry, resources ["secrets"], a provider whose
//! keyArn names an enabled KMS key of the region.
Json CheckedEncryptionConfig(const ServiceContext& ctx, const Json& config) {
  if (config.size() != 1 || !config[0].is_object())
    ThrowInvalidParameter("encryptionConfig must have exactly one entry.");
  const Json& entry = config[0];
  std::vector<std::string> resources =
      OptionalStringList(entry, "resources", "encryptionConfig.").value_or(std::vector<std::string>{});
  if (resources != std::vector<std::string>{"secrets"})
    ThrowInvalidParameter("encryptionConfig.resources must be [\"secrets\"], the only resource EKS encrypts.");
  const Json* provider = OptionalObject(entry, "provider", "encryptionConfig.");
  std::string key_arn = provider ? OptionalString(*provider, "keyArn", "encryptionConfig.provider.").value_or("") : "";
  if (key_arn.empty()) ThrowInvalidParameter("encryptionConfig.provider.keyArn is required.");
  if (!UsableKmsKeyExists(ctx, key_arn))
    ThrowInvalidParameter("Key " + key_arn + " does not exist or is not enabled.");
  return Json::array({{{"resources", resources}, {"provider", {{"keyArn", key_arn}}}}});
}

std::string OidcIssuer(ServiceContext& ctx) {
  return "https://oidc.eks." + Region(ctx) + ".amazonaws.com/id/" +
         ctx.world.RandomString(32, "0123456789ABCDEF");
}

Json NewClusterDoc(ServiceContext& ctx, const Json& body, const std::string& name) {
  std::string version = OptionalString(body, "version").value_or(kDefaultKubernetesVersion);
  CheckVersion(version);
  std::string role_arn = RequiredString(body, "roleArn");
  CheckRoleArnShape(role_arn);
  if (!RoleExists(ctx, role_arn))
    ThrowInvalidParameter("Role with arn: " + role_arn + ", does not exist");
  const Json* vpc_request = OptionalObject(body, "resourcesVpcConfig");
  if (vpc_request == nullptr) ThrowInvalidParameter("resourcesVpcConfig is required.");

  Json view = {
      {"name", name},
      {"arn", EksArn(ctx, "cluster/" + name)},
      {"createdAt", NowEpoch(ctx)},
      {"version", version},
      {"platformVersion", "eks.1"},
      {"roleArn", role_arn},
      {"resourcesVpcConfig", VpcConfigView(ctx, *vpc_request)},
      {"kubernetesNetworkConfig",
       NetworkConfigView(ctx, OptionalObject(body, "kubernetesNetworkConfig"))},
      {"accessConfig", AccessConfigView(OptionalObject(body, "accessConfig"))},
      {"health", {{"issues", Json::array()}}},
      {"id", ctx.world.NewUuid()},
      {"tags",
       CheckedTags(OptionalStringMap(body, "tags").value_or(std::map<std::string, std::string>{}),
                   "InvalidParameterException")}};
  std::set<std::string> enabled;
  if (const Json* logging = OptionalObject(body, "logging")) ApplyLoggingRequest(*logging, enabled);
  view["logging"] = LoggingView(enabled);
  if (auto token = OptionalString(body, "clientRequestToken")) view["clientRequestToken"] = *token;
  if (const Json* encryption = OptionalArray(body, "encryptionConfig"))
    view["encryptionConfig"] = CheckedEncryptionConfig(ctx, *encryption);
  std::string support = "EXTENDED";
  if (const Json* policy = OptionalObject(body, "upgradePolicy")) {
    support = OptionalString(*policy, "supportType", "upgradePolicy.").value_or(support);
    if (support != "STANDARD" && support != "EXTENDED") {
      ThrowInvalidParameter("upgradePolicy.supportType must be STANDARD or EXTENDED.");
    }
  }
  view["upgradePolicy"] = {{"supportType", support}};

  // Who created the cluster: with accessConfig.bootstrapClusterCreatorAdminPermissions
  // (true unless written false), its Kubernetes API admits that principal as an admin.
  std::string creator = ctx.request.caller.arn;
  if (creator.empty()) creator = SandboxUserArn(ctx.settings.account_id);
  return Json{{"region", Region(ctx)},
              {"cluster", name},
              {"name", name},
              {"creatorArn", creator},
              {"issuer", OidcIssuer(ctx)},
              {"lifecycle", NewLifecycle(ctx, ctx.settings.cluster_delay)},
              {"view", view}};
}

Json ClusterAnswer(const ServiceContext& ctx, const Json& doc) {
  return Json{{"cluster", RenderCluster(ctx, doc)}};
}

//! The cluster, which must be ACTIVE to be updated.
Json RequireUpdatableCluster(ServiceContext& ctx, const std::string& name) {
  Json doc = RequireCluster(ctx, name);
  Phase phase = PhaseOf(ctx, doc);
  if (phase != Phase::Active) {
    ThrowInUse("Cluster " + name + " is currently " + StatusWord(phase) +
               " and cannot be updated until it is ACTIVE.");
  }
  return doc;
}

Json UpdateAnswer(ServiceContext& ctx, Json& doc, const std::string& type, const Json& params) {
  std::string name = doc["name"].get<std::string>();
  BeginUpdating(ctx, doc, ctx.settings.cluster_delay);
  SaveCluster(ctx, doc);
  return Json{{"update", StartUpdate(ctx, UpdateTarget{name, "", ""}, type, params,
                                     ctx.settings.cluster_delay)}};
}

Json EndpointAccessUpdate(ServiceContext& ctx, Json& doc, const Json& request) {
  const std::string label = "resourcesVpcConfig.";
  Json& vpc = doc["view"]["resourcesVpcConfig"];
  bool old_public = vpc["endpointPublicAccess"].get<bool>();
  bool old_private = vpc["endpointPrivateAccess"].get<bool>();
  std::vector<std::string> old_cidrs = vpc["publicAccessCidrs"].get<std::vector<std::string>>();
  bool public_access = OptionalBool(request, "endpointPublicAccess", label).value_or(old_public);
  bool private_access = OptionalBool(request, "endpointPrivateAccess", label).value_or(old_private);
  std::vector<std::string> cidrs =
      OptionalStringList(request, "publicAccessCidrs", label).value_or(old_cidrs);
  CheckPublicCidrs(cidrs);
  if (!public_access && !private_access) {
    ThrowInvalidParameter(
        "Cluster must have at least one of public or private endpoint access enabled.");
  }
  if (public_access == old_public && private_access == old_private && cidrs == old_cidrs) {
    std::string list;
    for (const std::string& cidr : cidrs) list += (list.empty() ? "" : ",") + cidr;
    ThrowInvalidParameter(
        std::string(
            "Cluster is already at the desired configuration with endpointPrivateAccess: ") +
        (private_access ? "true" : "false") + " , endpointPublicAccess: " +
        (public_access ? "true" : "false") + ", and Public Endpoint Restrictions: " + list);
  }
  vpc["endpointPublicAccess"] = public_access;
  vpc["endpointPrivateAccess"] = private_access;
  vpc["publicAccessCidrs"] = cidrs;
  Json params =
      Json::array({UpdateParam("EndpointPublicAccess", public_access ? "true" : "false"),
                   UpdateParam("EndpointPrivateAccess", private_access ? "true" : "false"),
                   UpdateParam("PublicAccessCidrs", Json(cidrs).dump())});
  return UpdateAnswer(ctx, doc, "EndpointAccessUpdate", params);
}

Json VpcConfigUpdate(ServiceContext& ctx, Json& doc, const Json& request) {
  const std::string label = "resourcesVpcConfig.";
  Json& vpc = doc["view"]["resourcesVpcConfig"];
  Json params = Json::array();
  if (auto subnets = OptionalStringList(request, "subnetIds", label)) {
    std::string new_vpc = CheckClusterSubnets(ctx, *subnets);
    if (new_vpc != vpc["vpcId"])
      ThrowInvalidParameter("Subnets specified must belong to the cluster's VPC.");
    vpc["subnetIds"] = *subnets;
    params.push_back(UpdateParam("Subnets", Json(*subnets).dump()));
  }
  if (auto groups = OptionalStringList(request, "securityGroupIds", label)) {
    CheckSecurityGroups(ctx, *groups);
    vpc["securityGroupIds"] = *groups;
    params.push_back(UpdateParam("SecurityGroups", Json(*groups).dump()));
  }
  return UpdateAnswer(ctx, doc, "VpcConfigUpdate", params);
}

Json LoggingUpdate(ServiceContext& ctx, Json& doc, const Json& request) {
  std::set<std::string> enabled = EnabledLogTypes(doc["view"]["logging"]);
  std::set<std::string> before = enabled;
  ApplyLoggingRequest(request, enabled);
  if (enabled == before) {
    ThrowInvalidParameter("No changes needed for the logging config provided");
  }
  doc["view"]["logging"] = LoggingView(enabled);
  Json params =
      Json::array({UpdateParam("ClusterLogging", doc["view"]["logging"]["clusterLogging"].dump())});
  return UpdateAnswer(ctx, doc, "LoggingUpdate", params);
}

Json AccessConfigUpdate(ServiceContext& ctx, Json& doc, const Json& request) {
  std::string current = doc["view"]["accessConfig"]["authenticationMode"].get<std::string>();
  std::string wanted = RequiredString(request, "authenticationMode", "accessConfig.");
  auto rank = [](const std::string& mode) {
    return mode == "CONFIG_MAP" ? 0 : mode == "API_AND_CONFIG_MAP" ? 1 : mode == "API" ? 2 : -1;
  };
  if (rank(wanted) < 0) {
    ThrowInvalidParameter(
        "accessConfig.authenticationMode must be one of CONFIG_MAP, API, API_AND_CONFIG_MAP.");
  }
  if (rank(wanted) <= rank(current)) {
    ThrowInvalidParameter("Unsupported authentication mode update from " + current + " to " +
                          wanted);
  }
  doc["view"]["accessConfig"]["authenticationMode"] = wanted;
  Json params = Json::array({UpdateParam("AuthenticationMode", wanted)});
  return UpdateAnswer(ctx, doc, "AccessConfigUpdate", params);
}

Json UpgradePolicyUpdate(ServiceContext& ctx, Json& doc, const Json& request) {
  std::string support = RequiredString(request, "supportType", "upgradePolicy.");
  if (support != "STANDARD" && support != "EXTENDED") {
    ThrowInvalidParameter("upgradePolicy.supportType must be STANDARD or EXTENDED.");
  }
  doc["view"]["upgradePolicy"]["supportType"] = support;
  Json params = Json::array({UpdateParam("UpgradePolicySupportType", support)});
  return UpdateAnswer(ctx, doc, "UpgradePolicyUpdate", params);
}

// The cluster security group EKS makes in the cluster's VPC ("eks-cluster-sg-<name>-<n>": all
// traffic from itself, all out; the group managed node groups' nodes join) and deletes with
// the cluster (DeleteCluster).
void AddClusterSecurityGroup(ServiceContext& ctx, Json& doc) {
  Json& vpc = doc["view"]["resourcesVpcConfig"];
  const std::string name = doc["name"];
  std::string group_name = "eks-cluster-sg-" + name + "-" + ctx.world.RandomString(10, "0123456789");
  Json tags = {{"Name", group_name}, {"kubernetes.io/cluster/" + name, "owned"}, {"aws:eks:cluster-name", name}};
  vpc["clusterSecurityGroupId"] = CreateServiceSecurityGroup(
      ctx, vpc["vpcId"], group_name,
      "EKS created security group applied to ENI that is attached to EKS Control Plane master nodes, as well "
      "as any managed workloads.",
      tags);
}

}  // namespace

std::optional<Json> LoadCluster(ServiceContext& ctx, const std::string& name) {
  std::string key = ClusterKey(ctx, name);
  std::optional<Json> doc = ctx.world.Get(kClusterKind, key);
  if (!doc) return std::nullopt;
  if (PhaseOf(ctx, *doc) != Phase::Gone) return doc;
  for (const std::string& addon : ChildKeys(ctx, kAddonKind, name))
    ctx.world.Erase(kAddonKind, addon);
  EraseUpdates(ctx, UpdateTarget{name, "", ""});
  EraseAccessEntriesOf(ctx, name);
  ctx.world.Erase(kClusterKind, key);
  return std::nullopt;
}

Json RequireCluster(ServiceContext& ctx, const std::string& name) {
  std::optional<Json> doc = LoadCluster(ctx, name);
  if (!doc) ThrowNotFound(ClusterNotFound(name));
  return *doc;
}

void SaveCluster(ServiceContext& ctx, const Json& doc) {
  ctx.world.Put(kClusterKind, ClusterKey(ctx, doc.at("name").get<std::string>()), doc);
}

Json RenderCluster(const ServiceContext& ctx, const Json& doc) {
  Json view = doc.at("view");
  view["status"] = StatusWord(PhaseOf(ctx, doc));
  if (!WasReady(ctx, doc)) {
    // As AWS while CREATING: no endpoint, an empty certificate authority, no identity yet.
    view["certificateAuthority"] = Json::object();
    return view;
  }
  view["endpoint"] = ctx.cluster_endpoint_base + "/clusters/" + doc.at("name").get<std::string>();
  view["certificateAuthority"] = {{"data", base::Base64Encode(ctx.cluster_ca_pem)}};
  view["identity"] = {{"oidc", {{"issuer", doc.at("issuer")}}}};
  return view;
}

Response CreateCluster(ServiceContext& ctx) {
  Json body = ObjectBody(ctx);
  std::string name = RequiredString(body, "name");
  CheckName(name, "cluster");
  if (std::optional<Json> existing = LoadCluster(ctx, name)) {
    std::optional<std::string> token = OptionalString(body, "clientRequestToken");
    const Json& view = existing->at("view");
    if (token && view.value("clientRequestToken", "") == *token) {
      return JsonResponse(ctx, ClusterAnswer(ctx, *existing));
    }
    ThrowInUse("Cluster already exists with name: " + name);
  }
  Json doc = NewClusterDoc(ctx, body, name);
  AddClusterSecurityGroup(ctx, doc);
  SaveCluster(ctx, doc);
  const Json& access = doc["view"]["accessConfig"];
  if (access["authenticationMode"] != "CONFIG_MAP" && access["bootstrapClusterCreatorAdminPermissions"] == true)
    AddCreatorAccessEntry(ctx, name, doc["creatorArn"].get<std::string>());
  return JsonResponse(ctx, ClusterAnswer(ctx, doc));
}

Response DescribeCluster(ServiceContext& ctx, const std::string& name) {
  return JsonResponse(ctx, ClusterAnswer(ctx, RequireCluster(ctx, name)));
}

Response ListClusters(ServiceContext& ctx) {
  std::string prefix = Region(ctx) + "/";
  std::vector<std::string> names;
  for (const auto& [key, doc] : ctx.world.List(kClusterKind)) {
    if (key.compare(0, prefix.size(), prefix) != 0) continue;
    std::string name = doc.at("name").get<std::string>();
    if (LoadCluster(ctx, name)) names.push_back(name);
  }
  return JsonResponse(ctx, Paginate(ctx, names, "clusters"));
}

Response DeleteCluster(ServiceContext& ctx, const std::string& name) {
  Json doc = RequireCluster(ctx, name);
  if (PhaseOf(ctx, doc) == Phase::Deleting) return JsonResponse(ctx, ClusterAnswer(ctx, doc));
  if (!NodegroupNames(ctx, name).empty()) ThrowInUse("Cluster has nodegroups attached");
  DeleteAddonsOf(ctx, name, ctx.settings.cluster_delay);
  // EKS deletes the group as the cluster goes; here as its deletion begins, in an answer that
  // commits (a read that finds the cluster gone answers 404, which rolls its writes back).
  DeleteServiceSecurityGroup(ctx, doc["view"]["resourcesVpcConfig"].value("clusterSecurityGroupId", ""));
  BeginDeleting(ctx, doc, ctx.settings.cluster_delay);
  SaveCluster(ctx, doc);
  return JsonResponse(ctx, ClusterAnswer(ctx, doc));
}

Response UpdateClusterConfig(ServiceContext& ctx, const std::string& name) {
  Json body = ObjectBody(ctx);
  Json doc = RequireUpdatableCluster(ctx, name);
  const Json* vpc = OptionalObject(body, "resourcesVpcConfig");
  const Json* logging = OptionalObject(body, "logging");
  const Json* access = OptionalObject(body, "accessConfig");
  const Json* upgrade = OptionalObject(body, "upgradePolicy");
  // Subnets and security groups restated unchanged beside an endpoint change are no change.
  auto differs = [&](const char* member) {
    return vpc && vpc->contains(member) && !(*vpc)[member].is_null() &&
           (*vpc)[member] != doc["view"]["resourcesVpcConfig"][member];
  };
  bool vpc_change = differs("subnetIds") || differs("securityGroupIds");
  bool endpoint_given =
      vpc && (vpc->contains("endpointPublicAccess") || vpc->contains("endpointPrivateAccess") ||
              vpc->contains("publicAccessCidrs"));
  bool endpoint_change =
      endpoint_given && (!vpc_change || differs("endpointPublicAccess") ||
                         differs("endpointPrivateAccess") || differs("publicAccessCidrs"));
  int kinds = endpoint_change + vpc_change + (logging != nullptr) + (access != nullptr) +
              (upgrade != nullptr);
  if (kinds == 0)
    ThrowInvalidParameter("No changes needed: the request names no configuration to update.");
  if (kinds > 1) ThrowInvalidParameter("Only one type of update can be allowed.");
  Json answer;
  if (endpoint_change) {
    answer = EndpointAccessUpdate(ctx, doc, *vpc);
  } else if (vpc_change) {
    answer = VpcConfigUpdate(ctx, doc, *vpc);
  } else if (logging) {
    answer = LoggingUpdate(ctx, doc, *logging);
  } else if (access) {
    answer = AccessConfigUpdate(ctx, doc, *access);
  } else {
    answer = UpgradePolicyUpdate(ctx, doc, *upgrade);
  }
  return JsonResponse(ctx, answer);
}

Response AssociateEncryptionConfig(ServiceContext& ctx, const std::string& name) {
  Json body = ObjectBody(ctx);
  const Json* config = OptionalArray(body, "encryptionConfig");
  if (config == nullptr) ThrowInvalidParameter("encryptionConfig is required.");
  Json doc = RequireUpdatableCluster(ctx, name);
  // Secrets encryption is switched on once and for all: another key needs a new cluster.
  if (doc["view"].contains("encryptionConfig") && !doc["view"]["encryptionConfig"].empty())
    ThrowInvalidParameter("Encryption is already enabled on cluster " + name + ".");
  Json checked = CheckedEncryptionConfig(ctx, *config);
  doc["view"]["encryptionConfig"] = checked;
  Json params = Json::array({UpdateParam("EncryptionConfig", checked.dump())});
  return JsonResponse(ctx, UpdateAnswer(ctx, doc, "AssociateEncryptionConfig", params));
}

Response UpdateClusterVersion(ServiceContext& ctx, const std::string& name) {
  Json body = ObjectBody(ctx);
  std::string version = RequiredString(body, "version");
  Json doc = RequireUpdatableCluster(ctx, name);
  std::string current = doc["view"]["version"].get<std::string>();
  CheckVersion(version);
  if (MinorOf(version) != MinorOf(current) + 1) {
    ThrowInvalidParameter("Unsupported Kubernetes minor version update from " + current + " to " +
                          version);
  }
  doc["view"]["version"] = version;
  doc["view"]["platformVersion"] = "eks.1";
  Json params =
      Json::array({UpdateParam("Version", version), UpdateParam("PlatformVersion", "eks.1")});
  return JsonResponse(ctx, UpdateAnswer(ctx, doc, "VersionUpdate", params));
}

}  // namespace strata::sandbox::eks
