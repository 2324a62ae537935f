// A role's inline policies: PutRolePolicy, GetRolePolicy, DeleteRolePolicy,
// ListRolePolicies. They live inside the role ("InlinePolicies": {name: document}), so
// they go with it and DeleteRole refuses while any remain.

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_pagination.h"
#include "sandbox/services/iam/iam_policy_document.h"
#include "sandbox/services/iam/iam_roles.h"
#include "sandbox/services/iam/iam_validation.h"

namespace strata::sandbox::iam {
namespace {

std::string PolicyName(const IamCall& call) { return RequireName(call.params, "PolicyName", 128); }

const Json& InlineDocument(const Json& role, const std::string& name) {
  const Json& policies = role["InlinePolicies"];
  auto it = policies.find(name);
  if (it == policies.end()) {
    throw NoSuchEntity("The role policy with name " + name + " cannot be found.");
  }
  return *it;
}

void PutRolePolicy(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::string name = PolicyName(call);
  std::string document = call.params.Length("PolicyDocument", 1, 131072, true);
  CheckPolicyDocument(document, PolicyKind::Inline);
  role["InlinePolicies"][name] = document;
  SaveRole(call.world(), role);
}

void GetRolePolicy(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::string name = PolicyName(call);
  const Json& document = InlineDocument(role, name);
  AddText(call.result, "RoleName", role["RoleName"].get<std::string>());
  AddText(call.result, "PolicyName", name);
  AddText(call.result, "PolicyDocument", EncodePolicyDocument(document.get<std::string>()));
}

void DeleteRolePolicy(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::string name = PolicyName(call);
  InlineDocument(role, name);
  role["InlinePolicies"].erase(name);
  SaveRole(call.world(), role);
}

void ListRolePolicies(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  std::vector<std::string> names;
  for (auto it = role["InlinePolicies"].begin(); it != role["InlinePolicies"].end(); ++it) {
    names.push_back(it.key());  // nlohmann's object keeps keys sorted, as AWS lists them
  }
  Page page = SelectPage(call.params, names.size());
  AddStringList(call.result, "PolicyNames",
                std::vector<std::string>(names.begin() + static_cast<long>(page.begin),
                                         names.begin() + static_cast<long>(page.end)));
  WritePage(call.result, page);
}

}  // namespace

void AddRolePolicyActions(IamActionTable& table) {
  table["PutRolePolicy"] = {PutRolePolicy, false};
  table["GetRolePolicy"] = {GetRolePolicy, true};
  table["DeleteRolePolicy"] = {DeleteRolePolicy, false};
  table["ListRolePolicies"] = {ListRolePolicies, true};
}

}  // namespace strata::sandbox::iam
