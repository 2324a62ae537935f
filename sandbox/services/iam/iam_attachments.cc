// Managed policies attached to roles: AttachRolePolicy, DetachRolePolicy,
// ListAttachedRolePolicies. The attachment is the role's "AttachedPolicies" list of ARNs;
// a policy's AttachmentCount is counted from it.

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_managed_policies.h"
#include "sandbox/services/iam/iam_pagination.h"
#include "sandbox/services/iam/iam_roles.h"
#include "sandbox/services/iam/iam_validation.h"

namespace strata::sandbox::iam {
namespace {

constexpr size_t kMaxPoliciesPerRole = 10;

void AttachRolePolicy(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::string arn = call.params.Length("PolicyArn", 20, 2048, true);
  LoadPolicy(call.world(), arn);
  Json& attached = role["AttachedPolicies"];
  if (std::find(attached.begin(), attached.end(), arn) != attached.end()) return;  // idempotent
  if (attached.size() >= kMaxPoliciesPerRole) {
    throw LimitExceeded("Cannot exceed quota for PoliciesPerRole: 10");
  }
  attached.push_back(arn);
  SaveRole(call.world(), role);
}

void DetachRolePolicy(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::string arn = call.params.Length("PolicyArn", 20, 2048, true);
  Json& attached = role["AttachedPolicies"];
  auto it = std::find(attached.begin(), attached.end(), arn);
  if (it == attached.end()) throw NoSuchEntity("Policy " + arn + " was not found.");
  attached.erase(it);
  SaveRole(call.world(), role);
}

void ListAttachedRolePolicies(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::string prefix = OptionalPathPrefix(call.params);
  std::vector<std::string> arns;
  for (const Json& arn : role["AttachedPolicies"]) {
    std::string text = arn.get<std::string>();
    if (PolicyPathFromArn(text).compare(0, prefix.size(), prefix) == 0) arns.push_back(text);
  }
  Page page = SelectPage(call.params, arns.size());
  pugi::xml_node list = call.result.append_child("AttachedPolicies");
  for (size_t i = page.begin; i < page.end; ++i) {
    pugi::xml_node member = list.append_child("member");
    AddText(member, "PolicyName", PolicyNameFromArn(arns[i]));
    AddText(member, "PolicyArn", arns[i]);
  }
  WritePage(call.result, page);
}

}  // namespace

void AddAttachmentActions(IamActionTable& table) {
  table["AttachRolePolicy"] = {AttachRolePolicy, false};
  table["DetachRolePolicy"] = {DetachRolePolicy, false};
  table["ListAttachedRolePolicies"] = {ListAttachedRolePolicies, true};
}

}  // namespace strata::sandbox::iam
