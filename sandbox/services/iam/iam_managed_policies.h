#pragma once
// Managed policies: customer managed ones stored in the world (kind "iam_policy", keyed
// by ARN) and the AWS managed catalogue, both in one shape:
//   {"PolicyName", "PolicyId", "Arn", "Path", "Description"?, "CreateDate", "UpdateDate",
//    "DefaultVersionId", "Tags": [...], "Versions": [{"VersionId", "Document" (as sent),
//    "CreateDate"}, ...] (oldest first), "NextVersion": n, "AwsManaged"?: true}
// AttachmentCount is not stored: it is counted from the roles that attach the policy.

#include <optional>
#include <string>

#include <pugixml.hpp>

#include "sandbox/services/iam/iam_call.h"

namespace strata::sandbox::iam {

//! The managed policy with ARN `arn`: a customer one from the world or an AWS managed one.
std::optional<Json> FindPolicy(const World& world, const std::string& arn);
//! FindPolicy, or NoSuchEntity "Policy <arn> does not exist or is not attachable.".
Json LoadPolicy(const World& world, const std::string& arn);

//! How many roles have the policy `arn` attached.
size_t AttachmentCount(const World& world, const std::string& arn);

//! The name and path a policy ARN encodes ("arn:aws:iam::aws:policy/service-role/X":
//! "X", "/service-role/"). Empty strings when `arn` is not a policy ARN.
std::string PolicyNameFromArn(const std::string& arn);
std::string PolicyPathFromArn(const std::string& arn);

}  // namespace strata::sandbox::iam
