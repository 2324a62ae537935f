#include "sandbox/kubernetes/auth/cluster_access.h"

#include <algorithm>

#include "sandbox/caller_identity.h"
#include "sandbox/services/eks/eks_access_entries.h"
#include "sandbox/services/eks/eks_common.h"

namespace strata::sandbox::k8s_auth {

namespace {

std::vector<ClusterAccess::Entry> LoadEntries(const World& world, const std::string& region, const std::string& cluster) {
  const std::string admin = std::string(eks::kAccessPolicyArnPrefix) + "AmazonEKSClusterAdminPolicy";
  std::vector<ClusterAccess::Entry> entries;
  for (const auto& [key, doc] : world.ListPrefix(eks::kAccessEntryKind, region + "/" + cluster + "/")) {
    const Json& view = doc.value("view", Json::object());
    ClusterAccess::Entry entry;
    entry.principal_arn = view.value("principalArn", "");
    entry.username = view.value("username", "");
    entry.groups = view.value("kubernetesGroups", std::vector<std::string>{});
    const Json& policies = doc.value("policies", Json::object());
    if (auto it = policies.find(admin); it != policies.end())
      entry.cluster_admin = it->value("accessScope", Json::object()).value("type", "") == "cluster";
    entries.push_back(std::move(entry));
  }
  return entries;
}

// "{{SessionName}}" in an entry's user name is the caller's session: the last part of an
// assumed-role ARN.
std::string UserName(const std::string& pattern, const std::string& caller_arn) {
  const std::string placeholder = "{{SessionName}}";
  size_t at = pattern.find(placeholder);
  if (at == std::string::npos) return pattern;
  std::string session = caller_arn.substr(caller_arn.rfind('/') + 1);
  return pattern.substr(0, at) + session + pattern.substr(at + placeholder.size());
}

}  // namespace

std::optional<ClusterAccess> LoadClusterAccess(const World& world, const std::string& name,
                                               const std::string& account_id) {
  for (const auto& [key, doc] : world.List(eks::kClusterKind)) {
    if (doc.value("name", "") != name) continue;
    ClusterAccess access;
    access.name = name;
    access.region = doc.value("region", "us-east-1");
    access.creator_arn = doc.value("creatorArn", SandboxUserArn(account_id));
    const Json& view = doc.value("view", Json::object());
    access.creator_is_admin =
        view.value("accessConfig", Json::object()).value("bootstrapClusterCreatorAdminPermissions", true);
    access.entries = LoadEntries(world, access.region, name);
    return access;
  }
  return std::nullopt;
}

bool KubeUser::IsAdmin() const { return std::find(groups.begin(), groups.end(), kMastersGroup) != groups.end(); }

KubeUser KubeUserFor(const std::string& caller_arn, const std::string& user_id, const std::string& account,
                     const ClusterAccess& cluster) {
  KubeUser user;
  user.name = caller_arn;
  user.uid = "aws-iam-authenticator:" + account + ":" + user_id;
  std::string principal = CanonicalArn(caller_arn);
  bool admin = cluster.creator_is_admin && principal == CanonicalArn(cluster.creator_arn);
  for (const ClusterAccess::Entry& entry : cluster.entries) {
    if (entry.principal_arn != principal) continue;
    if (!entry.username.empty()) user.name = UserName(entry.username, caller_arn);
    user.groups.insert(user.groups.end(), entry.groups.begin(), entry.groups.end());
    admin = admin || entry.cluster_admin;
  }
  if (admin) user.groups.insert(user.groups.begin(), kMastersGroup);
  user.groups.push_back(kAuthenticatedGroup);
  return user;
}

}  // namespace strata::sandbox::k8s_auth
