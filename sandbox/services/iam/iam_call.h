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

#include "sandbox/service.h"
#include "sandbox/services/iam/iam_params.h"

namespace strata::sandbox::iam {

inline constexpr const char* kIamVersion = "2010-05-08";

inline constexpr const char* kRoleKind = "iam_role";
inline constexpr const char* kPolicyKind = "iam_policy";
inline constexpr const char* kOidcProviderKind = "iam_oidc_provider";
inline constexpr const char* kInstanceProfileKind = "iam_instance_profile";

//! One IAM call being answered.
struct IamCall {
  ServiceContext& ctx;
  const Params& params;
  //! Where the handler writes its answer: the <ActionResult> element.
  pugi::xml_node result;

  World& world() const { return ctx.world; }
  const std::string& account() const { return ctx.settings.account_id; }
  std::string Now() const { return IsoTime(ctx.now); }
};

using IamHandler = void (*)(IamCall&);

struct IamAction {
  IamHandler handler = nullptr;
  //! Whether the action has an output shape (<ActionResult>); Delete*, Tag*, Attach*... don't.
  bool has_result = true;
};

using IamActionTable = std::map<std::string, IamAction>;

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
