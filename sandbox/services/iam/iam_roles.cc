// The role actions: CreateRole, GetRole, ListRoles, UpdateRole, UpdateRoleDescription,
// UpdateAssumeRolePolicy, DeleteRole, TagRole, UntagRole, ListRoleTags.

#include "sandbox/services/iam/iam_roles.h"

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_instance_profiles.h"
#include "sandbox/services/iam/iam_pagination.h"
#include "sandbox/services/iam/iam_policy_document.h"
#include "sandbox/services/iam/iam_tags.h"
#include "sandbox/services/iam/iam_validation.h"

namespace strata::sandbox::iam {
namespace {

constexpr long long kMinSessionDuration = 3600;
constexpr long long kMaxSessionDuration = 43200;

std::string RoleName(const IamCall& call) { return RequireName(call.params, "RoleName", 64); }

std::optional<long long> SessionDuration(const IamCall& call) {
  return call.params.Integer("MaxSessionDuration", kMinSessionDuration, kMaxSessionDuration);
}

void CreateRole(IamCall& call) {
  std::string name = RoleName(call);
  std::string path = OptionalPath(call.params);
  std::string document = call.params.Length("AssumeRolePolicyDocument", 1, 131072, true);
  CheckPolicyDocument(document, PolicyKind::Trust);
  std::string description = OptionalDescription(call.params);
  long long duration = SessionDuration(call).value_or(kMinSessionDuration);
  std::vector<QueryTag> tags = call.params.Tags();
  if (FindRole(call.world(), name)) {
    throw EntityAlreadyExists("Role with name " + name + " already exists.");
  }
  Json role = {{"RoleName", name},
               {"RoleId", NewUniqueId(call.world(), "AROA")},
               {"Arn", IamArn(call.account(), "role", path, name)},
               {"Path", path},
               {"CreateDate", call.Now()},
               {"AssumeRolePolicyDocument", document},
               {"MaxSessionDuration", duration},
               {"Tags", Json::array()},
               {"AttachedPolicies", Json::array()},
               {"InlinePolicies", Json::object()}};
  if (call.params.Has("Description")) role["Description"] = description;
  SetTags(role, tags, TagKeys::CaseInsensitive);
  SaveRole(call.world(), role);
  WriteRole(call.result.append_child("Role"), role, RoleDetail::Full);
}

void GetRole(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  WriteRole(call.result.append_child("Role"), role, RoleDetail::Full);
}

void ListRoles(IamCall& call) {
  std::string prefix = OptionalPathPrefix(call.params);
  std::vector<Json> roles;
  for (auto& [key, role] : call.world().List(kRoleKind)) {
    if (role["Path"].get<std::string>().compare(0, prefix.size(), prefix) == 0) {
      roles.push_back(std::move(role));
    }
  }
  Page page = SelectPage(call.params, roles.size());
  pugi::xml_node list = call.result.append_child("Roles");
  for (size_t i = page.begin; i < page.end; ++i) {
    WriteRole(list.append_child("member"), roles[i], RoleDetail::Listed);
  }
  WritePage(call.result, page);
}

void UpdateRole(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  if (call.params.Has("Description")) role["Description"] = OptionalDescription(call.params);
  if (auto duration = SessionDuration(call)) role["MaxSessionDuration"] = *duration;
  SaveRole(call.world(), role);
}

void UpdateRoleDescription(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  call.params.Required("Description");
  role["Description"] = OptionalDescription(call.params);
  SaveRole(call.world(), role);
  WriteRole(call.result.append_child("Role"), role, RoleDetail::Full);
}

void UpdateAssumeRolePolicy(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  std::string document = call.params.Length("PolicyDocument", 1, 131072, true);
  CheckPolicyDocument(document, PolicyKind::Trust);
  role["AssumeRolePolicyDocument"] = document;
  SaveRole(call.world(), role);
}

void DeleteRole(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  std::string key = NameKey(role["RoleName"].get<std::string>());
  if (!InstanceProfilesWithRole(call.world(), key).empty()) {
    throw DeleteConflict("Cannot delete entity, must remove roles from instance profile first.");
  }
  if (!role["AttachedPolicies"].empty()) {
    throw DeleteConflict("Cannot delete entity, must detach all policies first.");
  }
  if (!role["InlinePolicies"].empty()) {
    throw DeleteConflict("Cannot delete entity, must delete policies first.");
  }
  call.world().Erase(kRoleKind, key);
}

void TagRole(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  SetTags(role, RequiredTags(call.params), TagKeys::CaseInsensitive);
  SaveRole(call.world(), role);
}

void UntagRole(IamCall& call) {
  Json role = LoadRole(call.world(), RoleName(call));
  RemoveTags(role, TagKeysParam(call.params), TagKeys::CaseInsensitive);
  SaveRole(call.world(), role);
}

void ListRoleTags(IamCall& call) { WriteTagPage(call, LoadRole(call.world(), RoleName(call))); }

}  // namespace

std::optional<Json> FindRole(const World& world, const std::string& name) {
  return world.Get(kRoleKind, NameKey(name));
}

Json LoadRole(const World& world, const std::string& name) {
  std::optional<Json> role = FindRole(world, name);
  if (!role) throw NoSuchEntity("The role with name " + name + " cannot be found.");
  return *role;
}

std::optional<Json> FindRoleByArn(const World& world, const std::string& arn) {
  size_t slash = arn.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  std::optional<Json> role = FindRole(world, arn.substr(slash + 1));
  if (!role || (*role)["Arn"] != arn) return std::nullopt;
  return role;
}

void SaveRole(World& world, const Json& role) {
  world.Put(kRoleKind, NameKey(role["RoleName"].get<std::string>()), role);
}

void WriteRole(pugi::xml_node node, const Json& role, RoleDetail detail) {
  AddText(node, "Path", role["Path"].get<std::string>());
  AddText(node, "RoleName", role["RoleName"].get<std::string>());
  AddText(node, "RoleId", role["RoleId"].get<std::string>());
  AddText(node, "Arn", role["Arn"].get<std::string>());
  AddText(node, "CreateDate", role["CreateDate"].get<std::string>());
  AddText(node, "AssumeRolePolicyDocument",
          EncodePolicyDocument(role["AssumeRolePolicyDocument"].get<std::string>()));
  if (role.contains("Description")) {
    AddText(node, "Description", role["Description"].get<std::string>());
  }
  AddText(node, "MaxSessionDuration", std::to_string(role["MaxSessionDuration"].get<long long>()));
  if (detail == RoleDetail::Listed) return;
  WriteTags(node, role);
  node.append_child("RoleLastUsed");
}

void AddRoleActions(IamActionTable& table) {
  table["CreateRole"] = {CreateRole, true};
  table["GetRole"] = {GetRole, true};
  table["ListRoles"] = {ListRoles, true};
  table["UpdateRole"] = {UpdateRole, true};
  table["UpdateRoleDescription"] = {UpdateRoleDescription, true};
  table["UpdateAssumeRolePolicy"] = {UpdateAssumeRolePolicy, false};
  table["DeleteRole"] = {DeleteRole, false};
  table["TagRole"] = {TagRole, false};
  table["UntagRole"] = {UntagRole, false};
  table["ListRoleTags"] = {ListRoleTags, true};
}

}  // namespace strata::sandbox::iam
