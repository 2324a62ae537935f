// The instance profile actions: CreateInstanceProfile, GetInstanceProfile,
// ListInstanceProfiles, DeleteInstanceProfile, AddRoleToInstanceProfile,
// RemoveRoleFromInstanceProfile, ListInstanceProfilesForRole, Tag/Untag/
// ListInstanceProfileTags.

#include "sandbox/services/iam/iam_instance_profiles.h"

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_pagination.h"
#include "sandbox/services/iam/iam_roles.h"
#include "sandbox/services/iam/iam_tags.h"
#include "sandbox/services/iam/iam_validation.h"

namespace strata::sandbox::iam {
namespace {

std::string ProfileName(const IamCall& call) {
  return RequireName(call.params, "InstanceProfileName", 128);
}

Json LoadProfile(const World& world, const std::string& name) {
  std::optional<Json> profile = world.Get(kInstanceProfileKind, NameKey(name));
  if (!profile) throw NoSuchEntity("Instance Profile " + name + " cannot be found.");
  return *profile;
}

void SaveProfile(World& world, const Json& profile) {
  world.Put(kInstanceProfileKind, NameKey(profile["InstanceProfileName"].get<std::string>()),
            profile);
}

void WriteProfile(pugi::xml_node node, const World& world, const Json& profile, bool with_tags) {
  AddText(node, "Path", profile["Path"].get<std::string>());
  AddText(node, "InstanceProfileName", profile["InstanceProfileName"].get<std::string>());
  AddText(node, "InstanceProfileId", profile["InstanceProfileId"].get<std::string>());
  AddText(node, "Arn", profile["Arn"].get<std::string>());
  AddText(node, "CreateDate", profile["CreateDate"].get<std::string>());
  pugi::xml_node roles = node.append_child("Roles");
  for (const Json& key : profile["Roles"]) {
    if (std::optional<Json> role = FindRole(world, key.get<std::string>())) {
      WriteRole(roles.append_child("member"), *role, RoleDetail::Full);
    }
  }
  if (with_tags) WriteTags(node, profile);
}

void CreateInstanceProfile(IamCall& call) {
  std::string name = ProfileName(call);
  std::string path = OptionalPath(call.params);
  std::vector<QueryTag> tags = call.params.Tags();
  if (call.world().Get(kInstanceProfileKind, NameKey(name))) {
    throw EntityAlreadyExists("Instance Profile " + name + " already exists.");
  }
  Json profile = {{"InstanceProfileName", name},
                  {"InstanceProfileId", NewUniqueId(call.world(), "AIPA")},
                  {"Arn", IamArn(call.account(), "instance-profile", path, name)},
                  {"Path", path},
                  {"CreateDate", call.Now()},
                  {"Roles", Json::array()},
                  {"Tags", Json::array()}};
  SetTags(profile, tags, TagKeys::CaseSensitive);
  SaveProfile(call.world(), profile);
  WriteProfile(call.result.append_child("InstanceProfile"), call.world(), profile, true);
}

void GetInstanceProfile(IamCall& call) {
  Json profile = LoadProfile(call.world(), ProfileName(call));
  WriteProfile(call.result.append_child("InstanceProfile"), call.world(), profile, true);
}

void WriteProfilePage(IamCall& call, const std::vector<Json>& profiles) {
  Page page = SelectPage(call.params, profiles.size());
  pugi::xml_node list = call.result.append_child("InstanceProfiles");
  for (size_t i = page.begin; i < page.end; ++i) {
    WriteProfile(list.append_child("member"), call.world(), profiles[i], false);
  }
  WritePage(call.result, page);
}

void ListInstanceProfiles(IamCall& call) {
  std::string prefix = OptionalPathPrefix(call.params);
  std::vector<Json> profiles;
  for (auto& [key, profile] : call.world().List(kInstanceProfileKind)) {
    if (profile["Path"].get<std::string>().compare(0, prefix.size(), prefix) == 0) {
      profiles.push_back(std::move(profile));
    }
  }
  WriteProfilePage(call, profiles);
}

void ListInstanceProfilesForRole(IamCall& call) {
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  WriteProfilePage(call, InstanceProfilesWithRole(
                             call.world(), NameKey(role["RoleName"].get<std::string>())));
}

void DeleteInstanceProfile(IamCall& call) {
  Json profile = LoadProfile(call.world(), ProfileName(call));
  if (!profile["Roles"].empty()) {
    throw DeleteConflict("Cannot delete entity, must remove roles from instance profile first.");
  }
  call.world().Erase(kInstanceProfileKind,
                     NameKey(profile["InstanceProfileName"].get<std::string>()));
}

void AddRoleToInstanceProfile(IamCall& call) {
  Json profile = LoadProfile(call.world(), ProfileName(call));
  Json role = LoadRole(call.world(), RequireName(call.params, "RoleName", 64));
  if (!profile["Roles"].empty()) {
    throw LimitExceeded("Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1");
  }
  profile["Roles"].push_back(NameKey(role["RoleName"].get<std::string>()));
  SaveProfile(call.world(), profile);
}

void RemoveRoleFromInstanceProfile(IamCall& call) {
  Json profile = LoadProfile(call.world(), ProfileName(call));
  std::string role_name = RequireName(call.params, "RoleName", 64);
  Json& roles = profile["Roles"];
  auto it = std::find(roles.begin(), roles.end(), NameKey(role_name));
  if (it == roles.end()) {
    throw NoSuchEntity("The role with name " + role_name + " cannot be found.");
  }
  roles.erase(it);
  SaveProfile(call.world(), profile);
}

void TagInstanceProfile(IamCall& call) {
  Json profile = LoadProfile(call.world(), ProfileName(call));
  SetTags(profile, RequiredTags(call.params), TagKeys::CaseSensitive);
  SaveProfile(call.world(), profile);
}

void UntagInstanceProfile(IamCall& call) {
  Json profile = LoadProfile(call.world(), ProfileName(call));
  RemoveTags(profile, TagKeysParam(call.params), TagKeys::CaseSensitive);
  SaveProfile(call.world(), profile);
}

void ListInstanceProfileTags(IamCall& call) {
  WriteTagPage(call, LoadProfile(call.world(), ProfileName(call)));
}

}  // namespace

std::vector<Json> InstanceProfilesWithRole(const World& world, const std::string& role_key) {
  std::vector<Json> out;
  for (auto& [key, profile] : world.List(kInstanceProfileKind)) {
    const Json& roles = profile["Roles"];
    if (std::find(roles.begin(), roles.end(), role_key) != roles.end()) {
      out.push_back(std::move(profile));
    }
  }
  return out;
}

void AddInstanceProfileActions(IamActionTable& table) {
  table["CreateInstanceProfile"] = {CreateInstanceProfile, true};
  table["GetInstanceProfile"] = {GetInstanceProfile, true};
  table["ListInstanceProfiles"] = {ListInstanceProfiles, true};
  table["ListInstanceProfilesForRole"] = {ListInstanceProfilesForRole, true};
  table["DeleteInstanceProfile"] = {DeleteInstanceProfile, false};
  table["AddRoleToInstanceProfile"] = {AddRoleToInstanceProfile, false};
  table["RemoveRoleFromInstanceProfile"] = {RemoveRoleFromInstanceProfile, false};
  table["TagInstanceProfile"] = {TagInstanceProfile, false};
  table["UntagInstanceProfile"] = {UntagInstanceProfile, false};
  table["ListInstanceProfileTags"] = {ListInstanceProfileTags, true};
}

}  // namespace strata::sandbox::iam
