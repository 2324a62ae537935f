#include "sandbox/kubernetes/auth/cluster_access.h"

#include <algorithm>

#include "sandbox/caller_identity.h"
#include "sandbox/services/eks/eks_common.h"

namespace strata::sandbox::k8s_auth {

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
    return access;
  }
  return std::nullopt;
}

bool KubeUser::IsAdmin() const { return std::find(groups.begin(), groups.end(), kMastersGroup) != groups.end(); }

std::string CanonicalArn(const std::string& arn) {
  // arn:<partition>:sts::<account>:assumed-role/<role>/<session>
  const std::string marker = ":assumed-role/";
  size_t at = arn.find(marker);
  if (arn.rfind("arn:", 0) != 0 || at == std::string::npos) return arn;
  size_t partition_end = arn.find(':', 4);
  std::string partition = arn.substr(4, partition_end - 4);
  size_t account_start = arn.find("::", partition_end);
  if (account_start == std::string::npos || account_start > at) return arn;
  std::string account = arn.substr(account_start + 2, at - account_start - 2);
  std::string rest = arn.substr(at + marker.size());
  std::string role = rest.substr(0, rest.find('/'));
  return "arn:" + partition + ":iam::" + account + ":role/" + role;
}

KubeUser KubeUserFor(const std::string& caller_arn, const std::string& user_id, const std::string& account,
                     const ClusterAccess& cluster) {
  KubeUser user;
  user.name = caller_arn;
  user.uid = "aws-iam-authenticator:" + account + ":" + user_id;
  if (cluster.creator_is_admin && CanonicalArn(caller_arn) == CanonicalArn(cluster.creator_arn))
    user.groups.push_back(kMastersGroup);
  user.groups.push_back(kAuthenticatedGroup);
  return user;
}

}  // namespace strata::sandbox::k8s_auth
