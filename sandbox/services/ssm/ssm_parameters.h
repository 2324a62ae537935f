#pragma once
// The sandbox's Systems Manager parameters: the public ones AWS publishes in every region
// (the EKS-optimized AMI ids under /aws/service/eks/optimized-ami/<version>/..., which a
// launch template or node group reads to pick an AMI; sandbox/eks_amis.h) and the
// account's own (PutParameter).
//
// Storage: the account's parameters are World documents under kParameterKind, keyed
// "<region>/<name>": {"region", "name", "type", "value", "description", "version",
// "modified", "tags"}. Public parameters are not stored: they are computed, the same in
// every world, so that an AMI id read today is the one read tomorrow.

#include <optional>
#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::ssm {

inline constexpr const char* kParameterKind = "ssm.parameter";

//! A public parameter of the call's region ("/aws/service/eks/optimized-ami/1.31/
//! amazon-linux-2-gpu/recommended/image_id"), shaped like a stored one; nullopt when AWS
//! publishes no such parameter (AL2 AMIs end with Kubernetes 1.32).
std::optional<Json> PublicParameter(const ServiceContext& ctx, const std::string& name);

}  // namespace strata::sandbox::ssm
