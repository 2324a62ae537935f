#pragma once
// How the EKS service sees the objects other sandbox services own: the EC2 subnets and
// security groups a cluster or node group is placed in, and the IAM roles it runs as. Only
// reads; the one place that knows how those services keep their objects in the world.

#include <optional>
#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

//! What EKS needs to know of a subnet.
struct SubnetRef {
  std::string id;
  std::string vpc_id;
  std::string availability_zone;
};

//! The subnet `id` in the call's region, if EC2 has it.
std::optional<SubnetRef> FindSubnet(const ServiceContext& ctx, const std::string& id);
//! Whether EC2 has the security group `id` in the call's region.
bool SecurityGroupExists(const ServiceContext& ctx, const std::string& id);
//! Whether `role_arn` ("arn:aws:iam::<account>:role/<path>/<name>") names a role IAM has.
bool RoleExists(const ServiceContext& ctx, const std::string& role_arn);
//! Refuses (InvalidParameterException, as EKS does before looking the role up) a value
//! that is not an IAM role ARN at all.
void CheckRoleArnShape(const std::string& role_arn);

}  // namespace strata::sandbox::eks
