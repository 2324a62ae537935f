#pragma once
// IAM roles as stored in the world (kind "iam_role", keyed by lower-cased name):
//   {"RoleName", "RoleId", "Arn", "Path", "CreateDate", "AssumeRolePolicyDocument" (as sent),
//    "Description"?, "MaxSessionDuration", "Tags": [...],
//    "AttachedPolicies": [policy ARN, ...], "InlinePolicies": {name: document}}
// and how they are written in answers. The role actions are in iam_roles.cc; inline
// policies, attachments and instance profiles have their own files.

#include <optional>
#include <string>

#include <pugixml.hpp>

#include "sandbox/services/iam/iam_call.h"

namespace strata::sandbox::iam {

//! The role named `name` (any case), if there is one.
std::optional<Json> FindRole(const World& world, const std::string& name);
//! The role named `name`; NoSuchEntity "The role with name <name> cannot be found." if none.
Json LoadRole(const World& world, const std::string& name);
//! The role whose ARN is `arn` exactly (path included), if there is one.
std::optional<Json> FindRoleByArn(const World& world, const std::string& arn);
//! Stores `role` under its name.
void SaveRole(World& world, const Json& role);

enum class RoleDetail {
  Full,    //!< GetRole, CreateRole, an instance profile's roles: everything
  Listed,  //!< ListRoles: no Tags, no RoleLastUsed (as AWS)
};

//! Writes the role's elements under `node` (a <Role> or a <member>).
void WriteRole(pugi::xml_node node, const Json& role, RoleDetail detail);

}  // namespace strata::sandbox::iam
