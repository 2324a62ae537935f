#pragma once
// How the EKS service sees the objects other sandbox services own: the EC2 subnets and
// security groups a cluster or node group is placed in, the EC2 launch template a node group
// launches from, the IAM roles it runs as and the KMS key that encrypts its secrets. Only
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
//! What EKS needs to know of one version of a launch template.
struct LaunchTemplateRef {
  std::string id;
  std::string name;
  bool version_found = false;  //!< the version asked for exists
  std::string version;         //!< its number ("3"), when found
  bool has_instance_type = false;
  bool has_image_id = false;
};

//! The launch template EC2 has in the call's region under `id` (or, when `id` is empty,
//! `name`), at `version` ("" for its default version; "$Latest" and "$Default" as EC2 reads
//! them); nullopt when there is no such template.
std::optional<LaunchTemplateRef> FindLaunchTemplate(const ServiceContext& ctx, const std::string& id,
                                                    const std::string& name, const std::string& version);
//! Whether `role_arn` ("arn:aws:iam::<account>:role/<path>/<name>") names a role IAM has.
bool RoleExists(const ServiceContext& ctx, const std::string& role_arn);
//! Whether `key_arn` ("arn:aws:kms:<region>:<account>:key/<id>") names a KMS key of the
//! call's region that is enabled (not disabled nor pending deletion).
bool UsableKmsKeyExists(const ServiceContext& ctx, const std::string& key_arn);
//! Refuses (InvalidParameterException, as EKS does before looking the role up) a value
//! that is not an IAM role ARN at all.
void CheckRoleArnShape(const std::string& role_arn);

}  // namespace strata::sandbox::eks
