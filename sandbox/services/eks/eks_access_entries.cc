#include "sandbox/services/eks/eks_access_entries.h"

#include <algorithm>
#include <optional>
#include <set>

#include "sandbox/caller_identity.h"
#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_common.h"

namespace strata::sandbox::eks {

namespace {

// The access policies EKS publishes (ListAccessPolicies), by name.
const std::vector<std::string>& PolicyNames() {
  static const std::vector<std::string> kNames = {
      "AmazonEKSAdminPolicy",        "AmazonEKSAdminViewPolicy",     "AmazonEKSAutoNodePolicy",
      "AmazonEKSBlockStoragePolicy", "AmazonEKSClusterAdminPolicy",  "AmazonEKSComputePolicy",
      "AmazonEKSEditPolicy",         "AmazonEKSHybridPolicy",        "AmazonEKSLoadBalancingPolicy",
      "AmazonEKSNetworkingPolicy",   "AmazonEKSViewPolicy",          "AmazonEMRJobPolicy",
      "AmazonSagemakerHyperpodClusterSchedulerPolicy",               "AmazonSagemakerHyperpodControllerPolicy",
      "AmazonSagemakerHyperpodSystemNamespacePolicy"};
  return kNames;
}

const std::set<std::string> kTypes = {"STANDARD", "EC2", "EC2_LINUX", "EC2_WINDOWS", "FARGATE_LINUX", "HYBRID_LINUX",
                                      "HYPERPOD_LINUX"};

std::string EntryNotFound() {
  return "The specified principalArn could not be found. You can view your available access entries with "
         "'list-access-entries'.";
}

// "arn:<partition>:iam::<account>:role/..." or ":user/...": what an entry may name.
void CheckPrincipalArn(const std::string& arn) {
  size_t iam = arn.find(":iam::");
  bool shaped = arn.rfind("arn:", 0) == 0 && iam != std::string::npos &&
                (arn.find(":role/", iam) != std::string::npos || arn.find(":user/", iam) != std::string::npos);
  if (!shaped) ThrowInvalidParameter("The specified principalArn is invalid: invalid ARN " + arn + ".");
}

void CheckGroups(const std::vector<std::string>& groups) {
  for (const std::string& group : groups) {
    if (group.rfind("system:", 0) == 0) {
      ThrowInvalidParameter("The kubernetes group name " + group + " is invalid, it cannot start with system:");
    }
    if (group.empty()) ThrowInvalidParameter("The kubernetes group name cannot be empty.");
  }
}

std::string EntryKey(const ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  return ChildKey(ctx, cluster, principal);
}

// The cluster, which must take access entries (authentication mode API or API_AND_CONFIG_MAP).
Json RequireApiCluster(ServiceContext& ctx, const std::string& cluster) {
  Json doc = RequireCluster(ctx, cluster);
  std::string mode = doc["view"]["accessConfig"].value("authenticationMode", "CONFIG_MAP");
  if (mode == "CONFIG_MAP") {
    ThrowInvalidRequest(
        "The cluster's authentication mode must be set to one of [API, API_AND_CONFIG_MAP] to perform this "
        "operation.");
  }
  return doc;
}

Json RequireEntry(ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  RequireApiCluster(ctx, cluster);
  std::optional<Json> doc = ctx.world.Get(kAccessEntryKind, EntryKey(ctx, cluster, principal));
  if (!doc) ThrowNotFound(EntryNotFound());
  return *doc;
}

// The user name EKS gives an entry that names none: the assumed-role session pattern for a
// role, the ARN for a user, the node pattern for EC2 entries.
std::string DefaultUserName(const std::string& principal, const std::string& type) {
  if (type != "STANDARD") return "system:node:{{EC2PrivateDNSName}}";
  size_t role = principal.find(":role/");
  if (role == std::string::npos) return principal;
  std::string name = principal.substr(principal.rfind('/') + 1);
  std::string head = principal.substr(0, role);  // arn:aws:iam::<account>
  std::string sts = head.replace(head.find(":iam:"), 5, ":sts:");
  return sts + ":assumed-role/" + name + "/{{SessionName}}";
}

Json NewEntryDoc(ServiceContext& ctx, const std::string& cluster, const std::string& principal, const std::string& type,
                 const std::vector<std::string>& groups, const std::string& username, const Json& tags) {
  double now = NowEpoch(ctx);
  std::string tail = principal.substr(principal.find(":iam::") + 6);  // <account>:role/name
  std::string account = tail.substr(0, tail.find(':'));
  std::string kind_and_name = tail.substr(tail.find(':') + 1);         // role/name
  std::string kind = kind_and_name.substr(0, kind_and_name.find('/'));
  std::string name = kind_and_name.substr(kind_and_name.rfind('/') + 1);
  Json view = {{"clusterName", cluster},
               {"principalArn", principal},
               {"kubernetesGroups", groups},
               {"accessEntryArn", EksArn(ctx, "access-entry/" + cluster + "/" + kind + "/" + account + "/" + name + "/" +
                                                  ctx.world.NewUuid())},
               {"createdAt", now},
               {"modifiedAt", now},
               {"tags", tags},
               {"username", username.empty() ? DefaultUserName(principal, type) : username},
               {"type", type}};
  return Json{{"region", Region(ctx)}, {"cluster", cluster}, {"policies", Json::object()}, {"view", view}};
}

Json AssociatedView(const std::string& policy, const Json& association) {
  Json view = association;
  view["policyArn"] = policy;
  return view;
}

Response DescribeAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  return JsonResponse(ctx, Json{{"accessEntry", RequireEntry(ctx, cluster, principal)["view"]}});
}

Response UpdateAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  Json body = ObjectBody(ctx);
  Json doc = RequireEntry(ctx, cluster, principal);
  Json& view = doc["view"];
  bool standard = view.value("type", "STANDARD") == "STANDARD";
  if (auto groups = OptionalStringList(body, "kubernetesGroups")) {
    if (!standard && !groups->empty()) ThrowInvalidParameter("kubernetesGroups can only be set for STANDARD access entries.");
    CheckGroups(*groups);
    view["kubernetesGroups"] = *groups;
  }
  if (auto username = OptionalString(body, "username")) {
    if (!standard) ThrowInvalidParameter("username can only be set for STANDARD access entries.");
    view["username"] = username->empty() ? DefaultUserName(principal, "STANDARD") : *username;
  }
  view["modifiedAt"] = NowEpoch(ctx);
  SaveAccessEntry(ctx, doc);
  return JsonResponse(ctx, Json{{"accessEntry", view}});
}

Response DeleteAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  RequireEntry(ctx, cluster, principal);
  ctx.world.Erase(kAccessEntryKind, EntryKey(ctx, cluster, principal));
  return JsonResponse(ctx, Json::object());
}

Response AssociateAccessPolicy(ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  Json body = ObjectBody(ctx);
  Json doc = RequireEntry(ctx, cluster, principal);
  std::string policy = RequiredString(body, "policyArn");
  std::string name = policy.rfind(kAccessPolicyArnPrefix, 0) == 0 ? policy.substr(std::string(kAccessPolicyArnPrefix).size()) : "";
  const auto& names = PolicyNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    ThrowInvalidParameter("The policyArn " + policy + " is not a valid EKS access policy ARN.");
  }
  const Json* scope = OptionalObject(body, "accessScope");
  if (scope == nullptr) ThrowInvalidParameter("accessScope is required.");
  std::string type = RequiredString(*scope, "type", "accessScope.");
  std::vector<std::string> namespaces = OptionalStringList(*scope, "namespaces", "accessScope.").value_or(std::vector<std::string>{});
  if (type != "cluster" && type != "namespace") ThrowInvalidParameter("accessScope.type must be cluster or namespace.");
  if (type == "namespace" && namespaces.empty())
    ThrowInvalidParameter("accessScope.namespaces must name at least one namespace when accessScope.type is namespace.");
  if (type == "cluster" && !namespaces.empty())
    ThrowInvalidParameter("accessScope.namespaces must be empty when accessScope.type is cluster.");
  double now = NowEpoch(ctx);
  Json& association = doc["policies"][policy];
  double associated_at = association.is_object() ? association.value("associatedAt", now) : now;
  association = {{"accessScope", {{"type", type}, {"namespaces", namespaces}}},
                 {"associatedAt", associated_at},
                 {"modifiedAt", now}};
  SaveAccessEntry(ctx, doc);
  return JsonResponse(ctx, Json{{"clusterName", cluster},
                                {"principalArn", principal},
                                {"associatedAccessPolicy", AssociatedView(policy, association)}});
}

Response ListAssociatedAccessPolicies(ServiceContext& ctx, const std::string& cluster, const std::string& principal) {
  Json doc = RequireEntry(ctx, cluster, principal);
  std::vector<std::string> policies;
  for (const auto& [policy, association] : doc["policies"].items()) policies.push_back(policy);
  Json page = Paginate(ctx, policies, "associatedAccessPolicies");
  Json views = Json::array();
  for (const Json& policy : page["associatedAccessPolicies"])
    views.push_back(AssociatedView(policy.get<std::string>(), doc["policies"][policy.get<std::string>()]));
  page["associatedAccessPolicies"] = views;
  page["clusterName"] = cluster;
  page["principalArn"] = principal;
  return JsonResponse(ctx, page);
}

Response DisassociateAccessPolicy(ServiceContext& ctx, const std::string& cluster, const std::string& principal,
                                  const std::string& policy) {
  Json doc = RequireEntry(ctx, cluster, principal);
  if (!doc["policies"].contains(policy)) {
    ThrowNotFound("The specified policyArn " + policy + " is not associated with the principalArn.");
  }
  doc["policies"].erase(policy);
  SaveAccessEntry(ctx, doc);
  return JsonResponse(ctx, Json::object());
}

}  // namespace

Response CreateAccessEntry(ServiceContext& ctx, const std::string& cluster) {
  Json body = ObjectBody(ctx);
  std::string principal = RequiredString(body, "principalArn");
  RequireApiCluster(ctx, cluster);
  CheckPrincipalArn(principal);
  std::optional<std::string> token = OptionalString(body, "clientRequestToken");
  if (std::optional<Json> existing = ctx.world.Get(kAccessEntryKind, EntryKey(ctx, cluster, principal))) {
    if (token && existing->value("clientRequestToken", "") == *token)
      return JsonResponse(ctx, Json{{"accessEntry", (*existing)["view"]}});
    ThrowInUse("The specified access entry resource is already in use on this cluster.");
  }
  std::string type = OptionalString(body, "type").value_or("STANDARD");
  if (!kTypes.count(type)) ThrowInvalidParameter("The access entry type " + type + " is not valid.");
  std::vector<std::string> groups = OptionalStringList(body, "kubernetesGroups").value_or(std::vector<std::string>{});
  std::string username = OptionalString(body, "username").value_or("");
  if (type != "STANDARD" && (!groups.empty() || !username.empty())) {
    ThrowInvalidParameter("kubernetesGroups and username can only be set for STANDARD access entries.");
  }
  CheckGroups(groups);
  Json tags = CheckedTags(OptionalStringMap(body, "tags").value_or(std::map<std::string, std::string>{}),
                          "InvalidParameterException");
  Json doc = NewEntryDoc(ctx, cluster, principal, type, groups, username, tags);
  if (token) doc["clientRequestToken"] = *token;
  SaveAccessEntry(ctx, doc);
  return JsonResponse(ctx, Json{{"accessEntry", doc["view"]}});
}

Response ListAccessEntries(ServiceContext& ctx, const std::string& cluster) {
  RequireApiCluster(ctx, cluster);
  std::optional<std::string> policy;
  for (const auto& [key, value] : ctx.request.query)
    if (key == "associatedPolicyArn") policy = value;
  std::vector<std::string> principals;
  for (const std::string& key : ChildKeys(ctx, kAccessEntryKind, cluster)) {
    std::optional<Json> doc = ctx.world.Get(kAccessEntryKind, key);
    if (!doc || (policy && !(*doc)["policies"].contains(*policy))) continue;
    principals.push_back((*doc)["view"]["principalArn"].get<std::string>());
  }
  return JsonResponse(ctx, Paginate(ctx, principals, "accessEntries"));
}

Response RouteAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& rest) {
  const std::string marker = "/access-policies";
  size_t at = rest.find(marker);
  const std::string& method = ctx.request.method;
  if (at == std::string::npos) {
    if (method == "GET") return DescribeAccessEntry(ctx, cluster, rest);
    if (method == "POST") return UpdateAccessEntry(ctx, cluster, rest);
    if (method == "DELETE") return DeleteAccessEntry(ctx, cluster, rest);
  } else {
    std::string principal = rest.substr(0, at);
    std::string tail = rest.substr(at + marker.size());
    if (tail.empty() && method == "POST") return AssociateAccessPolicy(ctx, cluster, principal);
    if (tail.empty() && method == "GET") return ListAssociatedAccessPolicies(ctx, cluster, principal);
    if (tail.size() > 1 && tail[0] == '/' && method == "DELETE")
      return DisassociateAccessPolicy(ctx, cluster, principal, tail.substr(1));
  }
  throw ApiError(404, "NotFoundException",
                 "EKS has no operation " + method + " /clusters/{name}/access-entries/" + rest + ".");
}

Response ListAccessPolicies(ServiceContext& ctx) {
  Json page = Paginate(ctx, PolicyNames(), "accessPolicies");
  Json policies = Json::array();
  for (const Json& name : page["accessPolicies"])
    policies.push_back({{"name", name}, {"arn", kAccessPolicyArnPrefix + name.get<std::string>()}});
  page["accessPolicies"] = policies;
  return JsonResponse(ctx, page);
}

void SaveAccessEntry(ServiceContext& ctx, const Json& doc) {
  ctx.world.Put(kAccessEntryKind,
                EntryKey(ctx, doc.at("cluster").get<std::string>(), doc["view"]["principalArn"].get<std::string>()), doc);
}

std::optional<Json> FindAccessEntryByArn(ServiceContext& ctx, const std::string& cluster, const std::string& arn) {
  for (const std::string& key : ChildKeys(ctx, kAccessEntryKind, cluster)) {
    std::optional<Json> doc = ctx.world.Get(kAccessEntryKind, key);
    if (doc && (*doc)["view"].value("accessEntryArn", "") == arn) return doc;
  }
  return std::nullopt;
}

void AddCreatorAccessEntry(ServiceContext& ctx, const std::string& cluster, const std::string& creator_arn) {
  std::string principal = CanonicalArn(creator_arn);
  Json doc = NewEntryDoc(ctx, cluster, principal, "STANDARD", {}, "", Json::object());
  double now = NowEpoch(ctx);
  doc["policies"][std::string(kAccessPolicyArnPrefix) + "AmazonEKSClusterAdminPolicy"] = {
      {"accessScope", {{"type", "cluster"}, {"namespaces", Json::array()}}}, {"associatedAt", now}, {"modifiedAt", now}};
  SaveAccessEntry(ctx, doc);
}

void EraseAccessEntriesOf(ServiceContext& ctx, const std::string& cluster) {
  for (const std::string& key : ChildKeys(ctx, kAccessEntryKind, cluster)) ctx.world.Erase(kAccessEntryKind, key);
}

}  // namespace strata::sandbox::eks
