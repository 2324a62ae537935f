// The managed policy actions: CreatePolicy, GetPolicy, ListPolicies, DeletePolicy,
// CreatePolicyVersion, GetPolicyVersion, ListPolicyVersions, DeletePolicyVersion,
// SetDefaultPolicyVersion, TagPolicy, UntagPolicy, ListPolicyTags, ListEntitiesForPolicy.

#include "sandbox/services/iam/iam_managed_policies.h"

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_managed_catalogue.h"
#include "sandbox/services/iam/iam_pagination.h"
#include "sandbox/services/iam/iam_policy_document.h"
#include "sandbox/services/iam/iam_roles.h"
#include "sandbox/services/iam/iam_tags.h"
#include "sandbox/services/iam/iam_validation.h"

namespace strata::sandbox::iam {
namespace {

constexpr size_t kMaxVersions = 5;

std::string PolicyArnParam(const IamCall& call) {
  return call.params.Length("PolicyArn", 20, 2048, true);
}

//! A customer managed policy: the AWS managed ones cannot be changed.
Json LoadCustomerPolicy(const World& world, const std::string& arn) {
  Json policy = LoadPolicy(world, arn);
  if (policy.value("AwsManaged", false)) {
    throw UnmodifiableEntity("Cannot modify the AWS managed policy " + arn + ".");
  }
  return policy;
}

void SavePolicy(World& world, const Json& policy) {
  world.Put(kPolicyKind, policy["Arn"].get<std::string>(), policy);
}

Json::const_iterator FindVersion(const Json& policy, const std::string& version_id) {
  const Json& versions = policy["Versions"];
  return std::find_if(versions.begin(), versions.end(),
                      [&](const Json& v) { return v["VersionId"] == version_id; });
}

const Json& LoadVersion(const Json& policy, const std::string& version_id) {
  auto it = FindVersion(policy, version_id);
  if (it == policy["Versions"].end()) {
    throw NoSuchEntity("Policy " + policy["Arn"].get<std::string>() + " version " + version_id +
                       " does not exist or is not attachable.");
  }
  return *it;
}

std::string VersionIdParam(const IamCall& call) {
  std::string id = call.params.Required("VersionId");
  bool ok = id.size() >= 2 && id[0] == 'v' && id[1] >= '1' && id[1] <= '9';
  if (!ok) {
    throw ValidationError("VersionId", id,
                          "Member must satisfy regular expression pattern: "
                          "v[1-9][0-9]*(\\.[A-Za-z0-9-]*)?");
  }
  return id;
}

enum class PolicyDetail { Full, Listed };

void WritePolicy(pugi::xml_node node, const World& world, const Json& policy,
                 PolicyDetail detail) {
  std::string arn = policy["Arn"].get<std::string>();
  AddText(node, "PolicyName", policy["PolicyName"].get<std::string>());
  AddText(node, "PolicyId", policy["PolicyId"].get<std::string>());
  AddText(node, "Arn", arn);
  AddText(node, "Path", policy["Path"].get<std::string>());
  AddText(node, "DefaultVersionId", policy["DefaultVersionId"].get<std::string>());
  AddText(node, "AttachmentCount", std::to_string(AttachmentCount(world, arn)));
  AddText(node, "PermissionsBoundaryUsageCount", "0");
  AddBool(node, "IsAttachable", true);
  if (detail == PolicyDetail::Full && policy.contains("Description")) {
    AddText(node, "Description", policy["Description"].get<std::string>());
  }
  AddText(node, "CreateDate", policy["CreateDate"].get<std::string>());
  AddText(node, "UpdateDate", policy["UpdateDate"].get<std::string>());
  if (detail == PolicyDetail::Full) WriteTags(node, policy);
}

void WriteVersion(pugi::xml_node node, const Json& policy, const Json& version,
                  bool with_document) {
  if (with_document) {
    AddText(node, "Document", EncodePolicyDocument(version["Document"].get<std::string>()));
  }
  AddText(node, "VersionId", version["VersionId"].get<std::string>());
  AddBool(node, "IsDefaultVersion", policy["DefaultVersionId"] == version["VersionId"]);
  AddText(node, "CreateDate", version["CreateDate"].get<std::string>());
}

void CreatePolicy(IamCall& call) {
  std::string name = RequireName(call.params, "PolicyName", 128);
  std::string path = OptionalPath(call.params);
  std::string document = call.params.Length("PolicyDocument", 1, 131072, true);
  CheckPolicyDocument(document, PolicyKind::Managed);
  std::string description = OptionalDescription(call.params);
  std::vector<QueryTag> tags = call.params.Tags();
  std::string key = NameKey(name);
  for (const auto& [arn, existing] : call.world().List(kPolicyKind)) {
    if (NameKey(existing["PolicyName"].get<std::string>()) == key) {
      throw EntityAlreadyExists("A policy called " + name +
                                " already exists. Duplicate names are not allowed.");
    }
  }
  std::string now = call.Now();
  Json policy = {{"PolicyName", name},
                 {"PolicyId", NewUniqueId(call.world(), "ANPA")},
                 {"Arn", IamArn(call.account(), "policy", path, name)},
                 {"Path", path},
                 {"CreateDate", now},
                 {"UpdateDate", now},
                 {"DefaultVersionId", "v1"},
                 {"Tags", Json::array()},
                 {"Versions", Json::array({{{"VersionId", "v1"},
                                            {"Document", document},
                                            {"CreateDate", now}}})},
                 {"NextVersion", 2}};
  if (call.params.Has("Description")) policy["Description"] = description;
  SetTags(policy, tags, TagKeys::CaseSensitive);
  SavePolicy(call.world(), policy);
  WritePolicy(call.result.append_child("Policy"), call.world(), policy, PolicyDetail::Full);
}

void GetPolicy(IamCall& call) {
  Json policy = LoadPolicy(call.world(), PolicyArnParam(call));
  WritePolicy(call.result.append_child("Policy"), call.world(), policy, PolicyDetail::Full);
}

void ListPolicies(IamCall& call) {
  std::string scope = call.params.Get("Scope", "All");
  if (scope != "All" && scope != "AWS" && scope != "Local") {
    throw ValidationError("Scope", scope, "Member must satisfy enum value set: [All, AWS, Local]");
  }
  bool only_attached = call.params.Bool("OnlyAttached", false);
  std::string prefix = OptionalPathPrefix(call.params);
  std::vector<Json> candidates;
  if (scope != "Local") {
    candidates.insert(candidates.end(), AwsManagedPolicies().begin(), AwsManagedPolicies().end());
  }
  if (scope != "AWS") {
    for (auto& [arn, policy] : call.world().List(kPolicyKind)) candidates.push_back(policy);
  }
  std::vector<Json> policies;
  for (Json& p : candidates) {
    if (p["Path"].get<std::string>().compare(0, prefix.size(), prefix) != 0) continue;
    if (only_attached && AttachmentCount(call.world(), p["Arn"].get<std::string>()) == 0) continue;
    policies.push_back(std::move(p));
  }
  Page page = SelectPage(call.params, policies.size());
  pugi::xml_node list = call.result.append_child("Policies");
  for (size_t i = page.begin; i < page.end; ++i) {
    WritePolicy(list.append_child("member"), call.world(), policies[i], PolicyDetail::Listed);
  }
  WritePage(call.result, page);
}

void DeletePolicy(IamCall& call) {
  Json policy = LoadCustomerPolicy(call.world(), PolicyArnParam(call));
  std::string arn = policy["Arn"].get<std::string>();
  if (AttachmentCount(call.world(), arn) > 0) {
    throw DeleteConflict("Cannot delete a policy attached to entities.");
  }
  if (policy["Versions"].size() > 1) {
    throw DeleteConflict(
        "This policy has more than one version. Before you delete a policy, you must delete the "
        "policy's versions. The default version is deleted with the policy.");
  }
  call.world().Erase(kPolicyKind, arn);
}

void CreatePolicyVersion(IamCall& call) {
  Json policy = LoadCustomerPolicy(call.world(), PolicyArnParam(call));
  std::string document = call.params.Length("PolicyDocument", 1, 131072, true);
  CheckPolicyDocument(document, PolicyKind::Managed);
  bool set_default = call.params.Bool("SetAsDefault", false);
  if (policy["Versions"].size() >= kMaxVersions) {
    throw LimitExceeded(
        "A managed policy can have up to 5 versions. Before you create a new version, you must "
        "delete an existing version.");
  }
  std::string now = call.Now();
  int number = policy["NextVersion"].get<int>();
  Json version = {{"VersionId", "v" + std::to_string(number)},
                  {"Document", document},
                  {"CreateDate", now}};
  policy["Versions"].push_back(version);
  policy["NextVersion"] = number + 1;
  if (set_default) {
    policy["DefaultVersionId"] = version["VersionId"];
    policy["UpdateDate"] = now;
  }
  SavePolicy(call.world(), policy);
  WriteVersion(call.result.append_child("PolicyVersion"), policy, version, false);
}

void GetPolicyVersion(IamCall& call) {
  Json policy = LoadPolicy(call.world(), PolicyArnParam(call));
  const Json& version = LoadVersion(policy, VersionIdParam(call));
  WriteVersion(call.result.append_child("PolicyVersion"), policy, version, true);
}

void ListPolicyVersions(IamCall& call) {
  Json policy = LoadPolicy(call.world(), PolicyArnParam(call));
  std::vector<Json> versions(policy["Versions"].rbegin(), policy["Versions"].rend());  // newest first
  Page page = SelectPage(call.params, versions.size());
  pugi::xml_node list = call.result.append_child("Versions");
  for (size_t i = page.begin; i < page.end; ++i) {
    WriteVersion(list.append_child("member"), policy, versions[i], false);
  }
  WritePage(call.result, page);
}

void DeletePolicyVersion(IamCall& call) {
  Json policy = LoadCustomerPolicy(call.world(), PolicyArnParam(call));
  std::string version_id = VersionIdParam(call);
  LoadVersion(policy, version_id);
  if (policy["DefaultVersionId"] == version_id) {
    throw DeleteConflict("Cannot delete the default version of a policy.");
  }
  Json kept = Json::array();
  for (const Json& v : policy["Versions"]) {
    if (v["VersionId"] != version_id) kept.push_back(v);
  }
  policy["Versions"] = std::move(kept);
  SavePolicy(call.world(), policy);
}

void SetDefaultPolicyVersion(IamCall& call) {
  Json policy = LoadCustomerPolicy(call.world(), PolicyArnParam(call));
  std::string version_id = VersionIdParam(call);
  LoadVersion(policy, version_id);
  policy["DefaultVersionId"] = version_id;
  policy["UpdateDate"] = call.Now();
  SavePolicy(call.world(), policy);
}

void TagPolicy(IamCall& call) {
  Json policy = LoadCustomerPolicy(call.world(), PolicyArnParam(call));
  SetTags(policy, RequiredTags(call.params), TagKeys::CaseSensitive);
  SavePolicy(call.world(), policy);
}

void UntagPolicy(IamCall& call) {
  Json policy = LoadCustomerPolicy(call.world(), PolicyArnParam(call));
  RemoveTags(policy, TagKeysParam(call.params), TagKeys::CaseSensitive);
  SavePolicy(call.world(), policy);
}

void ListPolicyTags(IamCall& call) {
  WriteTagPage(call, LoadPolicy(call.world(), PolicyArnParam(call)));
}

void ListEntitiesForPolicy(IamCall& call) {
  std::string arn = LoadPolicy(call.world(), PolicyArnParam(call))["Arn"].get<std::string>();
  // The sandbox has no users or groups: only roles can attach a policy.
  std::string filter = call.params.Get("EntityFilter", "Role");
  std::vector<Json> roles;
  if (filter != "User" && filter != "Group") {
    for (auto& [key, role] : call.world().List(kRoleKind)) {
      const Json& attached = role["AttachedPolicies"];
      if (std::find(attached.begin(), attached.end(), arn) != attached.end()) {
        roles.push_back(std::move(role));
      }
    }
  }
  Page page = SelectPage(call.params, roles.size());
  pugi::xml_node list = call.result.append_child("PolicyRoles");
  for (size_t i = page.begin; i < page.end; ++i) {
    pugi::xml_node member = list.append_child("member");
    AddText(member, "RoleName", roles[i]["RoleName"].get<std::string>());
    AddText(member, "RoleId", roles[i]["RoleId"].get<std::string>());
  }
  call.result.append_child("PolicyGroups");
  call.result.append_child("PolicyUsers");
  WritePage(call.result, page);
}

}  // namespace

std::optional<Json> FindPolicy(const World& world, const std::string& arn) {
  if (IsAwsManagedArn(arn)) return FindAwsManagedPolicy(arn);
  return world.Get(kPolicyKind, arn);
}

Json LoadPolicy(const World& world, const std::string& arn) {
  std::optional<Json> policy = FindPolicy(world, arn);
  if (!policy) throw NoSuchEntity("Policy " + arn + " does not exist or is not attachable.");
  return *policy;
}

size_t AttachmentCount(const World& world, const std::string& arn) {
  size_t count = 0;
  for (const auto& [key, role] : world.List(kRoleKind)) {
    const Json& attached = role["AttachedPolicies"];
    count += static_cast<size_t>(std::count(attached.begin(), attached.end(), arn));
  }
  return count;
}

std::string PolicyNameFromArn(const std::string& arn) {
  size_t slash = arn.rfind('/');
  return slash == std::string::npos ? "" : arn.substr(slash + 1);
}

std::string PolicyPathFromArn(const std::string& arn) {
  size_t start = arn.find(":policy/");
  size_t slash = arn.rfind('/');
  if (start == std::string::npos || slash == std::string::npos) return "";
  start += std::char_traits<char>::length(":policy");
  return arn.substr(start, slash + 1 - start);
}

void AddManagedPolicyActions(IamActionTable& table) {
  table["CreatePolicy"] = {CreatePolicy, true};
  table["GetPolicy"] = {GetPolicy, true};
  table["ListPolicies"] = {ListPolicies, true};
  table["DeletePolicy"] = {DeletePolicy, false};
  table["CreatePolicyVersion"] = {CreatePolicyVersion, true};
  table["GetPolicyVersion"] = {GetPolicyVersion, true};
  table["ListPolicyVersions"] = {ListPolicyVersions, true};
  table["DeletePolicyVersion"] = {DeletePolicyVersion, false};
  table["SetDefaultPolicyVersion"] = {SetDefaultPolicyVersion, false};
  table["TagPolicy"] = {TagPolicy, false};
  table["UntagPolicy"] = {UntagPolicy, false};
  table["ListPolicyTags"] = {ListPolicyTags, true};
  table["ListEntitiesForPolicy"] = {ListEntitiesForPolicy, true};
}

}  // namespace strata::sandbox::iam
