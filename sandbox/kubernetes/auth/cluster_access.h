#pragma once
// Who may do what on an EKS cluster's Kubernetes API, as EKS decides it for the one case
// the sandbox models: the IAM principal that created the cluster is a cluster admin
// (EKS's "bootstrap cluster creator admin permissions": an access entry with
// AmazonEKSClusterAdminPolicy, the equivalent of the group system:masters) unless
// CreateCluster said accessConfig.bootstrapClusterCreatorAdminPermissions: false; so is a
// client certificate the sandbox CA issued in the group system:masters (the sandbox's
// kubeconfig). Anyone else is authenticated but allowed nothing: 403.
//
// Not modelled yet, and how it could be: EKS access entries (CreateAccessEntry and
// AssociateAccessPolicy in the EKS service, stored per cluster as {principalArn, username,
// kubernetesGroups, policies}) would be one more lookup in KubeUserFor: the canonical ARN
// against principalArn, the entry's username and groups, AmazonEKSClusterAdminPolicy as
// system:masters; the aws-auth ConfigMap (mapRoles/mapUsers in kube-system, for
// authenticationMode CONFIG_MAP and API_AND_CONFIG_MAP) the same from the Kubernetes
// store once it exists. Both need RBAC for anything short of admin.

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

//! The ARN an authorizer compares, as aws-iam-authenticator's arn.Canonicalize makes it:
//! an assumed-role session "arn:aws:sts::A:assumed-role/R/S" is its role
//! "arn:aws:iam::A:role/R"; other ARNs are themselves.
std::string CanonicalArn(const std::string& arn);

//! The user an AWS principal is on `cluster`: named by its ARN, admin (system:masters)
//! when it is the creator and the creator is admin, and system:authenticated in any case.
KubeUser KubeUserFor(const std::string& caller_arn, const std::string& user_id, const std::string& account,
                     const ClusterAccess& cluster);

}  // namespace strata::sandbox::k8s_auth
