#include "sandbox/services/eks/eks_world_refs.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include "sandbox/services/eks/eks_common.h"

namespace strata::sandbox::eks {

namespace {

// The EC2 service keeps one document per object under "ec2.<kind>", keyed by id, with the
// region it was made in (ec2_store.h). Its requests carry the raw scope region, ours a
// defaulted one: either matches.
std::optional<Json> FindEc2(const ServiceContext& ctx, const char* kind, const std::string& id) {
  std::optional<Json> object = ctx.world.Get(kind, id);
  if (!object || !object->is_object()) return std::nullopt;
  auto region = object->find("region");
  if (region != object->end() && region->is_string() && *region != ctx.request.region &&
      *region != Region(ctx)) {
    return std::nullopt;
  }
  return object;
}

std::string FirstString(const Json& object, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    auto it = object.find(name);
    if (it != object.end() && it->is_string()) return it->get<std::string>();
  }
  return "";
}

}  // namespace

std::optional<SubnetRef> FindSubnet(const ServiceContext& ctx, const std::string& id) {
  std::optional<Json> subnet = FindEc2(ctx, "ec2.subnet", id);
  if (!subnet) return std::nullopt;
  return SubnetRef{id, FirstString(*subnet, {"vpcId", "VpcId"}),
                   FirstString(*subnet, {"availabilityZone", "AvailabilityZone"})};
}

// EC2 keeps a launch template as one document under "ec2.launch_template" with its "name",
// "defaultVersion", "latestVersion" and "versions" ([{"number", "data"}]), each version's data
// in the element names EC2 answers with ("instanceType", "imageId").
std::optional<LaunchTemplateRef> FindLaunchTemplate(const ServiceContext& ctx, const std::string& id,
                                                    const std::string& name, const std::string& version) {
  std::optional<Json> lt;
  if (!id.empty()) {
    lt = FindEc2(ctx, "ec2.launch_template", id);
  } else {
    for (auto& [key, object] : ctx.world.List("ec2.launch_template")) {
      if (object.value("name", "") == name && FindEc2(ctx, "ec2.launch_template", key)) lt = std::move(object);
    }
  }
  if (!lt) return std::nullopt;
  LaunchTemplateRef ref;
  ref.id = lt->value("id", "");
  ref.name = lt->value("name", "");
  int64_t number = -1;
  if (version.empty() || version == "$Default") {
    number = lt->value("defaultVersion", int64_t{-1});
  } else if (version == "$Latest") {
    number = lt->value("latestVersion", int64_t{-1});
  } else if (version.size() < 12 && std::all_of(version.begin(), version.end(), ::isdigit)) {
    number = std::stoll(version);
  }
  for (const Json& v : lt->value("versions", Json::array())) {
    if (v.value("number", int64_t{-2}) != number) continue;
    const Json data = v.value("data", Json::object());
    ref.version_found = true;
    ref.version = std::to_string(number);
    ref.has_instance_type = data.contains("instanceType");
    ref.has_image_id = data.contains("imageId");
  }
  return ref;
}

bool SecurityGroupExists(const ServiceContext& ctx, const std::string& id) {
  return FindEc2(ctx, "ec2.security_group", id).has_value();
}

void CheckRoleArnShape(const std::string& role_arn) {
  if (role_arn.rfind("arn:", 0) != 0 || role_arn.find(":iam::") == std::string::npos ||
      role_arn.find(":role/") == std::string::npos) {
    throw ApiError(400, "InvalidParameterException", "Invalid role ARN: " + role_arn);
  }
}

bool RoleExists(const ServiceContext& ctx, const std::string& role_arn) {
  // The IAM service keeps roles under "iam_role", keyed by the lower-cased role name (names
  // are case-insensitive), each with its "Arn": the ARN's last segment names the role, and
  // the whole ARN (path and account included) must be that role's.
  if (role_arn.compare(0, 8, "arn:aws:") != 0 || role_arn.find(":role/") == std::string::npos) {
    return false;
  }
  std::string name = role_arn.substr(role_arn.rfind('/') + 1);
  if (name.empty()) return false;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::optional<Json> role = ctx.world.Get("iam_role", name);
  return role && role->is_object() && role->value("Arn", "") == role_arn;
}

bool UsableKmsKeyExists(const ServiceContext& ctx, const std::string& key_arn) {
  // The KMS service keeps keys under "kms.key", keyed "<region>/<key id>", each with its
  // "Arn" and "KeyState".
  size_t slash = key_arn.rfind(":key/");
  if (key_arn.compare(0, 8, "arn:aws:") != 0 || slash == std::string::npos) return false;
  std::optional<Json> key = ctx.world.Get("kms.key", Region(ctx) + "/" + key_arn.substr(slash + 5));
  return key && key->is_object() && key->value("Arn", "") == key_arn && key->value("KeyState", "") == "Enabled";
}

}  // namespace strata::sandbox::eks
