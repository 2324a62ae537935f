#pragma once
// Instance profiles (what EC2 instances and node groups carry a role in), stored in the
// world (kind "iam_instance_profile", keyed by lower-cased name) as
//   {"InstanceProfileName", "InstanceProfileId", "Arn", "Path", "CreateDate",
//    "Roles": [role key, ...] (at most one), "Tags": [...]}
// Answers carry each role in full, read from the world.

#include <string>
#include <vector>

#include "sandbox/services/iam/iam_call.h"

namespace strata::sandbox::iam {

//! The instance profiles that hold the role stored under `role_key` (its lower-cased name).
std::vector<Json> InstanceProfilesWithRole(const World& world, const std::string& role_key);

}  // namespace strata::sandbox::iam
