#pragma once
// The AWS managed policies every account sees at arn:aws:iam::aws:policy/<path><name>: all
// of them (about 1,500) by name, path, ARN, default version and dates, so that a mistyped
// or retired policy ARN is refused by the sandbox as it is by AWS. Statements are known only
// for the ones EKS clusters, node groups and add-ons attach (AmazonEKSClusterPolicy,
// AmazonEKSWorkerNodePolicy, AmazonEKS_CNI_Policy, AmazonEC2ContainerRegistryReadOnly,
// service-role/AmazonEBSCSIDriverPolicy...) and a few common ones (AdministratorAccess,
// ReadOnlyAccess), as plausible abridgements of AWS's; the others answer with an empty
// statement list. They are not stored in the world: they cannot be changed, deleted or tagged.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/world.h"

namespace strata::sandbox::iam {

//! "arn:aws:iam::aws:policy/": the prefix of every AWS managed policy ARN.
inline constexpr const char* kAwsManagedArnPrefix = "arn:aws:iam::aws:policy/";

//! Whether `arn` names an AWS managed policy (one in the catalogue or not).
bool IsAwsManagedArn(const std::string& arn);

//! The catalogue, in the shape of a stored managed policy (see iam_managed_policies.h),
//! ordered by name.
const std::vector<Json>& AwsManagedPolicies();

//! The catalogue's policy with ARN `arn`, if any.
std::optional<Json> FindAwsManagedPolicy(const std::string& arn);

}  // namespace strata::sandbox::iam
