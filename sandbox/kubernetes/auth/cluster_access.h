#pragma once
// Who may do what on an EKS cluster's Kubernetes API, as EKS decides it:
//  - the IAM principal that created the cluster is a cluster admin (EKS's "bootstrap
//    cluster creator admin permissions", the equivalent of the group system:masters) unless
//    CreateCluster said accessConfig.bootstrapClusterCreatorAdminPermissions: false;
//  - an EKS access entry (sandbox/services/eks/eks_access_entries.h) names a principal's
//    Kubernetes user name and groups; AmazonEKSClusterAdminPolicy on the whole cluster makes
//    it an admin;
//  - a client certificate the sandbox CA issued in the group system:masters (the sandbox's
//    kubeconfig) is an admin.
// Anyone else is authenticated but allowed nothing: 403. Not modelled: RBAC (the other
// access policies and Kubernetes groups grant nothing short of admin) and the aws-auth
// ConfigMap (mapRoles/mapUsers, for authenticationMode CONFIG_MAP and API_AND_CONFIG_MAP);
// deleting the creator's own access entry does not take its admin away.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/world.h"

namespace strata::sandbox::k8s_auth {

//! What the Kubernetes API needs to know about a cluster to decide who may use it.
struct ClusterAccess {
  std::string name;
  std::string region;
  //! The creator's ARN as CreateCluster recorded it (the sandbox user for clusters made
  //! before it was recorded).
  std::string creator_arn;
  //! accessConfig.bootstrapClusterCreatorAdminPermissions (true unless written false).
  bool creator_is_admin = true;

  //! An access entry as the API server uses it.
  struct Entry {
    std::string principal_arn;  //!< canonical: a role, not a session
    std::string username;       //!< may hold "{{SessionName}}"
    std::vector<std::string> groups;
    bool cluster_admin = false;  //!< AmazonEKSClusterAdminPolicy, scope cluster
  };
  std::vector<Entry> entries;
};

//! The cluster `name` of the world, in any region (the endpoint's path /clusters/<name>
//! names no region; the first made wins when two regions have one of that name), or nullopt.
//! Deleted clusters still in DELETING are found: they answer until they are gone.
std::optional<ClusterAccess> LoadClusterAccess(const World& world, const std::string& name,
                                               const std::string& account_id);

//! A Kubernetes user: what an authenticator hands to authorization (user.Info).
struct KubeUser {
  std::string name;                 //!< "arn:aws:iam::…:user/sandbox", "strata-sandbox-admin"
  std::string uid;                  //!< e.g. "aws-iam-authenticator:<account>:<user id>"
  std::vector<std::string> groups;  //!< "system:masters", "system:authenticated"
  bool IsAdmin() const;             //!< in system:masters
};

inline constexpr const char* kMastersGroup = "system:masters";
inline constexpr const char* kAuthenticatedGroup = "system:authenticated";

//! The user an AWS principal is on `cluster`: named by its access entry's user name (else its
//! ARN), with the entry's groups; admin (system:masters) when it is the creator and the
//! creator is admin, or its entry has cluster-wide AmazonEKSClusterAdminPolicy; and
//! system:authenticated in any case.
KubeUser KubeUserFor(const std::string& caller_arn, const std::string& user_id, const std::string& account,
                     const ClusterAccess& cluster);

}  // namespace strata::sandbox::k8s_auth
