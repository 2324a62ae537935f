#pragma once
// What an IAM action handler works with, and the table the IAM service dispatches by:
// each iam_<family>.cc adds its actions (roles, role policies, managed policies,
// attachments, OIDC providers, instance profiles).
//
// IAM is global: its objects are kept in the world per account, not per region, under
// the kinds below, keyed by lower-cased name (IAM names are unique regardless of case)
// or, for managed policies and OIDC providers, by ARN.

#include <map>
#include <string>

#include <pugixml.hpp>

#include "sandbox/protocol/aws_query_params.h"
#include "sandbox/query_service.h"
#include "sandbox/service.h"

namespace strata::sandbox::iam {

inline constexpr const char* kRoleKind = "iam_role";
inline constexpr const char* kPolicyKind = "iam_policy";
inline constexpr const char* kOidcProviderKind = "iam_oidc_provider";
inline constexpr const char* kInstanceProfileKind = "iam_instance_profile";

//! One IAM call being answered: its parameters, and the <ActionResult> to write into.
using IamCall = QueryCall;
using IamActionTable = QueryCallTable;

void AddRoleActions(IamActionTable& table);
void AddRolePolicyActions(IamActionTable& table);
void AddManagedPolicyActions(IamActionTable& table);
void AddAttachmentActions(IamActionTable& table);
void AddOidcProviderActions(IamActionTable& table);
void AddInstanceProfileActions(IamActionTable& table);

//! A unique id as IAM makes them: `prefix` ("AROA", "ANPA", "AIPA") and 17 characters of
//! [A-Z0-9].
std::string NewUniqueId(World& world, const std::string& prefix);

//! "arn:aws:iam::<account>:<type><path><name>" ("role", "policy", "instance-profile").
std::string IamArn(const std::string& account, const std::string& type, const std::string& path,
                   const std::string& name);

}  // namespace strata::sandbox::iam
