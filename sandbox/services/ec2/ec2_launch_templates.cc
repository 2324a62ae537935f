// Launch templates: CreateLaunchTemplate (idempotent by ClientToken), DescribeLaunchTemplates,
// DescribeLaunchTemplateVersions, CreateLaunchTemplateVersion (from a SourceVersion or not;
// idempotent by ClientToken), ModifyLaunchTemplate (the default version) and
// DeleteLaunchTemplate.
//
// A template is one document of kLaunchTemplateKind holding its versions: {"name",
// "defaultVersion", "latestVersion", "versions": [{"number", "description", "createdAt",
// "data"}]}. Each version's LaunchTemplateData is kept as EC2 writes it back — the element
// names of DescribeLaunchTemplateVersions ("blockDeviceMappingSet", "ebs", "volumeSize"),
// every value a string, lists as arrays of <item>s — so that an answer writes the stored data
// out as it is. The members read are ReadTemplateData's (image, instance type, key, user data,
// security groups, IAM instance profile, block devices with EBS, metadata options, tag
// specifications); EC2 refuses what it refuses of them, the others are not kept.

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "engine/base/base64.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

constexpr size_t kMaxUserDataBytes = 16 * 1024;
constexpr size_t kMaxLaunchTemplateClientToken = 128;

// The sizes (GiB) each EBS volume type allows.
const std::map<std::string, std::pair<int64_t, int64_t>> kVolumeSizeLimits = {
    {"standard", {1, 1024}}, {"gp2", {1, 16384}},  {"gp3", {1, 16384}}, {"io1", {4, 16384}},
    {"io2", {4, 65536}},     {"st1", {125, 16384}}, {"sc1", {125, 16384}}};
// The resources a launch template's TagSpecifications may tag at launch.
const std::set<std::string> kLaunchTaggableTypes = {"instance", "volume", "network-interface",
                                                    "spot-instances-request", "elastic-gpu"};

std::string LaunchTemplateTime(int64_t millis) {
  return IsoTime(std::chrono::system_clock::time_point(std::chrono::milliseconds(millis)));
}

ApiError InvalidParameterCombination(const std::string& message) {
  return ApiError(400, "InvalidParameterCombination", message);
}

void CheckLaunchTemplateName(const std::string& name) {
  bool valid = name.size() >= 3 && name.size() <= 128 && std::all_of(name.begin(), name.end(), [](char c) {
                 return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("()./-_", c) != nullptr;
               });
  if (!valid) {
    throw ApiError(400, "InvalidLaunchTemplateName.MalformedException",
                   "A launch template name must be between 3 and 128 characters, and may contain letters, numbers, "
                   "and the following characters: - ( ) . / _.'");
  }
}

//! "lt-" and 17 hexadecimal digits, or InvalidLaunchTemplateId.Malformed.
void CheckLaunchTemplateId(const std::string& id) {
  bool valid = id.size() == 20 && id.rfind("lt-", 0) == 0 &&
               std::all_of(id.begin() + 3, id.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  if (!valid) {
    throw ApiError(400, "InvalidLaunchTemplateId.Malformed",
                   "The specified ID for the launch template, " + id +
                       ", is not valid. Ensure that you specify the correct launch template ID in the format lt-xxxxxxxxxxxxxxxxx.");
  }
}

//! `value` when it is one of `allowed`, else InvalidParameterValue naming `param`.
std::string OneOf(const std::string& value, const std::string& param, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw InvalidParameterValue("Value (" + value + ") for parameter " + param + " is invalid. Valid values: " + list);
}

void CheckRange(int64_t value, int64_t low, int64_t high, const std::string& what) {
  if (value < low || value > high) {
    throw InvalidParameterValue("Value (" + std::to_string(value) + ") for parameter " + what +
                                " is invalid. It must be between " + std::to_string(low) + " and " +
                                std::to_string(high) + ".");
  }
}

//! The EBS part of one block device mapping ("<prefix>.Ebs.*"), with EC2's rules for sizes,
//! IOPS and throughput per volume type; null when the mapping has none.
Json ReadTemplateEbs(const Ec2Call& call, const std::string& prefix) {
  Json ebs = Json::object();
  for (auto [param, key] : {std::pair{".Encrypted", "encrypted"}, std::pair{".DeleteOnTermination", "deleteOnTermination"}}) {
    if (call.Has(prefix + param)) ebs[key] = BoolValue(call.GetBool(prefix + param, false));
  }
  std::string type = call.Get(prefix + ".VolumeType");
  if (!type.empty()) {
    ebs["volumeType"] = OneOf(type, "volumeType", {"standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"});
  }
  std::string effective = type.empty() ? "gp2" : type;  // EC2's default type
  if (std::optional<int64_t> size = call.GetInt(prefix + ".VolumeSize")) {
    auto [low, high] = kVolumeSizeLimits.at(effective);
    CheckRange(*size, low, high, "volumeSize (" + effective + ")");
    ebs["volumeSize"] = std::to_string(*size);
  }
  if (std::optional<int64_t> iops = call.GetInt(prefix + ".Iops")) {
    if (effective == "gp3") CheckRange(*iops, 3000, 16000, "iops (gp3)");
    else if (effective == "io1" || effective == "io2") CheckRange(*iops, 100, effective == "io1" ? 64000 : 256000, "iops");
    else throw InvalidParameterCombination("The parameter iops is not supported for " + effective + " volumes.");
    ebs["iops"] = std::to_string(*iops);
  }
  if (std::optional<int64_t> throughput = call.GetInt(prefix + ".Throughput")) {
    if (effective != "gp3") throw InvalidParameterCombination("The parameter throughput is only supported for gp3 volumes.");
    CheckRange(*throughput, 125, 1000, "throughput");
    ebs["throughput"] = std::to_string(*throughput);
  }
  for (auto [param, key] : {std::pair{".KmsKeyId", "kmsKeyId"}, std::pair{".SnapshotId", "snapshotId"}}) {
    if (call.Has(prefix + param)) ebs[key] = call.Get(prefix + param);
  }
  return ebs.empty() ? Json() : ebs;
}

Json ReadTemplateBlockDevices(const Ec2Call& call, const std::string& prefix) {
  Json mappings = Json::array();
  for (const std::string& member : call.NumberedMembers(prefix + "BlockDeviceMapping")) {
    Json mapping = {{"deviceName", call.Require(member + ".DeviceName")}};
    for (auto [param, key] : {std::pair{".VirtualName", "virtualName"}, std::pair{".NoDevice", "noDevice"}}) {
      if (call.Has(member + param)) mapping[key] = call.Get(member + param);
    }
    Json ebs = ReadTemplateEbs(call, member + ".Ebs");
    if (!ebs.is_null()) mapping["ebs"] = ebs;
    mappings.push_back(mapping);
  }
  return mappings;
}

Json ReadTemplateMetadataOptions(const Ec2Call& call, const std::string& prefix) {
  Json options = Json::object();
  struct Choice {
    const char* param;
    const char* key;
    std::vector<std::string> allowed;
  };
  for (const Choice& c : {Choice{".HttpTokens", "httpTokens", {"optional", "required"}},
                          Choice{".HttpEndpoint", "httpEndpoint", {"disabled", "enabled"}},
                          Choice{".HttpProtocolIpv6", "httpProtocolIpv6", {"disabled", "enabled"}},
                          Choice{".InstanceMetadataTags", "instanceMetadataTags", {"disabled", "enabled"}}}) {
    if (call.Has(prefix + c.param)) options[c.key] = OneOf(call.Get(prefix + c.param), c.key, c.allowed);
  }
  if (std::optional<int64_t> hops = call.GetInt(prefix + ".HttpPutResponseHopLimit")) {
    CheckRange(*hops, 1, 64, "httpPutResponseHopLimit");
    options["httpPutResponseHopLimit"] = std::to_string(*hops);
  }
  return options;
}

Json ReadTemplateTagSpecifications(const Ec2Call& call, const std::string& prefix) {
  Json specs = Json::array();
  for (const std::string& member : call.NumberedMembers(prefix + "TagSpecification")) {
    std::string type = call.Require(member + ".ResourceType");
    if (!kLaunchTaggableTypes.count(type)) {
      throw InvalidParameterValue("'" + type + "' is not a valid taggable resource type for this operation.");
    }
    Json tags = TagsUnder(call, member + ".Tag"), tag_set = Json::array();
    for (auto& [key, value] : tags.items()) tag_set.push_back({{"key", key}, {"value", value}});
    specs.push_back({{"resourceType", type}, {"tagSet", tag_set}});
  }
  return specs;
}

//! The call's "LaunchTemplateData.*" in the stored (answer) shape; MissingParameter when it
//! holds none of the members the sandbox keeps.
Json ReadTemplateData(const Ec2Call& call) {
  const std::string prefix = "LaunchTemplateData.";
  Json data = Json::object();
  for (auto [param, key] : {std::pair{"ImageId", "imageId"}, std::pair{"InstanceType", "instanceType"},
                            std::pair{"KeyName", "keyName"}, std::pair{"KernelId", "kernelId"},
                            std::pair{"RamDiskId", "ramDiskId"}}) {
    if (call.Has(prefix + param)) data[key] = call.Get(prefix + param);
  }
  for (auto [param, key] : {std::pair{"EbsOptimized", "ebsOptimized"}, std::pair{"DisableApiTermination", "disableApiTermination"}}) {
    if (call.Has(prefix + param)) data[key] = BoolValue(call.GetBool(prefix + param, false));
  }
  if (call.Has(prefix + "UserData")) {
    std::string user_data = call.Get(prefix + "UserData");
    std::optional<std::string> decoded = base::Base64Decode(user_data);
    if (!decoded) throw ApiError(400, "InvalidUserData.Malformed", "Invalid BASE64 encoding of user data.");
    if (decoded->size() > kMaxUserDataBytes) {
      throw InvalidParameterValue("User data is limited to " + std::to_string(kMaxUserDataBytes) + " bytes");
    }
    data["userData"] = user_data;
  }
  for (auto [param, key] : {std::pair{"SecurityGroupId", "securityGroupIdSet"}, std::pair{"SecurityGroup", "securityGroupSet"}}) {
    std::vector<std::string> groups = call.NumberedList(prefix + param);
    if (!groups.empty()) data[key] = groups;
  }
  Json profile = Json::object();
  for (auto [param, key] : {std::pair{"IamInstanceProfile.Arn", "arn"}, std::pair{"IamInstanceProfile.Name", "name"}}) {
    if (call.Has(prefix + param)) profile[key] = call.Get(prefix + param);
  }
  if (!profile.empty()) data["iamInstanceProfile"] = profile;
  Json devices = ReadTemplateBlockDevices(call, prefix);
  if (!devices.empty()) data["blockDeviceMappingSet"] = devices;
  Json metadata = ReadTemplateMetadataOptions(call, prefix + "MetadataOptions");
  if (!metadata.empty()) data["metadataOptions"] = metadata;
  Json specs = ReadTemplateTagSpecifications(call, prefix);
  if (!specs.empty()) data["tagSpecificationSet"] = specs;
  if (data.empty()) throw MissingParameter("LaunchTemplateData");
  return data;
}

std::string ReadVersionDescription(const Ec2Call& call) {
  std::string description = call.Get("VersionDescription");
  if (description.size() > 255) throw InvalidParameterValue("The version description may have at most 255 characters.");
  return description;
}

std::string ReadLaunchTemplateClientToken(const Ec2Call& call) {
  std::string token = call.Get("ClientToken");
  if (token.size() > kMaxLaunchTemplateClientToken) {
    throw InvalidParameterValue("Value (" + token + ") for parameter clientToken is invalid. It may have at most " +
                                std::to_string(kMaxLaunchTemplateClientToken) + " characters.");
  }
  return token;
}

Json NewTemplateVersion(const Ec2Call& call, int64_t number, const std::string& description, const Json& data) {
  Json version = {{"number", number}, {"createdAt", call.NowMillis()}, {"data", data}};
  if (!description.empty()) version["description"] = description;
  return version;
}

//! Writes a stored LaunchTemplateData (objects as elements, arrays as <item>s) under `parent`.
void WriteStoredTemplateData(pugi::xml_node parent, const Json& data) {
  for (auto it = data.begin(); it != data.end(); ++it) {
    const char* name = it.key().c_str();
    if (it->is_string()) {
      AddText(parent, name, it->get<std::string>());
    } else if (it->is_object()) {
      WriteStoredTemplateData(AddChild(parent, name), *it);
    } else if (it->is_array()) {
      pugi::xml_node set = AddChild(parent, name);
      for (const Json& element : *it) {
        if (element.is_string()) AddText(set, "item", element.get<std::string>());
        else WriteStoredTemplateData(AddItem(set), element);
      }
    }
  }
}

std::string CreatedBy(const Ec2Call& call) { return "arn:aws:iam::" + call.account() + ":root"; }

void WriteLaunchTemplate(const Ec2Call& call, pugi::xml_node item, const Json& lt) {
  AddText(item, "launchTemplateId", lt["id"]);
  AddText(item, "launchTemplateName", lt["name"]);
  AddText(item, "createTime", LaunchTemplateTime(lt["createdAt"]));
  AddText(item, "createdBy", CreatedBy(call));
  AddText(item, "defaultVersionNumber", std::to_string(lt["defaultVersion"].get<int64_t>()));
  AddText(item, "latestVersionNumber", std::to_string(lt["latestVersion"].get<int64_t>()));
  if (!lt["tags"].empty()) WriteTagSet(item, lt);
}

void WriteTemplateVersion(const Ec2Call& call, pugi::xml_node item, const Json& lt, const Json& version) {
  AddText(item, "launchTemplateId", lt["id"]);
  AddText(item, "launchTemplateName", lt["name"]);
  AddText(item, "versionNumber", std::to_string(version["number"].get<int64_t>()));
  if (version.contains("description")) AddText(item, "versionDescription", version["description"]);
  AddText(item, "createTime", LaunchTemplateTime(version["createdAt"]));
  AddText(item, "createdBy", CreatedBy(call));
  AddBool(item, "defaultVersion", version["number"] == lt["defaultVersion"]);
  WriteStoredTemplateData(AddChild(item, "launchTemplateData"), version["data"]);
}

std::optional<Json> FindTemplateNamed(const Ec2Call& call, const std::string& name) {
  for (Json& lt : ListIn(call, kLaunchTemplateKind)) {
    if (lt["name"] == name) return std::move(lt);
  }
  return std::nullopt;
}

//! The template the call names by LaunchTemplateId or LaunchTemplateName (the id wins).
Json RequireNamedTemplate(const Ec2Call& call) {
  std::string id = call.Get("LaunchTemplateId"), name = call.Get("LaunchTemplateName");
  if (!id.empty()) {
    CheckLaunchTemplateId(id);
    return Require(call, kLaunchTemplateKind, id);
  }
  if (name.empty()) {
    throw ApiError(400, "MissingParameter", "The request must contain the parameter launchTemplateName or launchTemplateId");
  }
  std::optional<Json> lt = FindTemplateNamed(call, name);
  if (!lt) {
    throw ApiError(400, "InvalidLaunchTemplateName.NotFoundException",
                   "The specified launch template, with template name " + name + ", does not exist.");
  }
  return *lt;
}

//! The version `spec` ("$Latest", "$Default" or a number) names in `lt`.
const Json& TemplateVersion(const Json& lt, const std::string& spec) {
  int64_t number = 0;
  if (spec == "$Latest") {
    number = lt["latestVersion"];
  } else if (spec == "$Default") {
    number = lt["defaultVersion"];
  } else if (!spec.empty() && spec.size() < 12 && std::all_of(spec.begin(), spec.end(), ::isdigit)) {
    number = std::stoll(spec);
  } else {
    throw InvalidParameterValue("Value (" + spec + ") for parameter version is invalid. Specify $Latest, $Default or a version number.");
  }
  for (const Json& version : lt["versions"]) {
    if (version["number"] == number) return version;
  }
  throw ApiError(400, "InvalidLaunchTemplateId.VersionNotFound",
                 "Could not find the specified version " + spec + " for the launch template with ID " +
                     lt["id"].get<std::string>() + ".");
}

void CreateLaunchTemplate(Ec2Call& call, pugi::xml_node response) {
  std::string name = call.Require("LaunchTemplateName");
  CheckLaunchTemplateName(name);
  std::string token = ReadLaunchTemplateClientToken(call);
  std::string description = ReadVersionDescription(call);
  Json data = ReadTemplateData(call);
  Json tags = TagsFromSpecifications(call, "launch-template");
  Json request = {{"name", name}, {"description", description}, {"data", data}, {"tags", tags}};
  if (!token.empty()) {
    for (const Json& earlier : ListIn(call, kLaunchTemplateKind)) {
      if (earlier.value("clientToken", "") != token) continue;
      if (earlier["request"] != request) {
        throw ApiError(400, "IdempotentParameterMismatch", "Client token already used before with different parameters.");
      }
      WriteLaunchTemplate(call, AddChild(response, "launchTemplate"), earlier);
      return;
    }
  }
  if (FindTemplateNamed(call, name)) {
    throw ApiError(400, "InvalidLaunchTemplateName.AlreadyExistsException",
                   "Launch template name already in use.");
  }
  Json lt = NewObject(call, kLaunchTemplateKind);
  lt["name"] = name;
  lt["tags"] = tags;
  lt["createdAt"] = call.NowMillis();
  lt["defaultVersion"] = 1;
  lt["latestVersion"] = 1;
  lt["versions"] = Json::array({NewTemplateVersion(call, 1, description, data)});
  if (!token.empty()) lt["clientToken"] = token, lt["request"] = request;
  Save(call, kLaunchTemplateKind, lt);
  WriteLaunchTemplate(call, AddChild(response, "launchTemplate"), lt);
}

void DescribeLaunchTemplates(Ec2Call& call, pugi::xml_node response) {
  std::vector<Json> templates = ListIn(call, kLaunchTemplateKind);
  std::vector<std::string> names = call.NumberedList("LaunchTemplateName");
  for (const std::string& name : names) {
    bool known = std::any_of(templates.begin(), templates.end(), [&](const Json& lt) { return lt["name"] == name; });
    if (!known) {
      throw ApiError(400, "InvalidLaunchTemplateName.NotFoundException",
                     "At least one of the launch templates specified in the request does not exist.");
    }
  }
  for (const std::string& id : call.NumberedList("LaunchTemplateId")) CheckLaunchTemplateId(id);
  auto fields = [&](const Json& lt, const std::string& name) -> std::optional<std::vector<std::string>> {
    using V = std::vector<std::string>;
    if (name == "launch-template-name") return V{lt["name"]};
    if (name == "create-time") return V{LaunchTemplateTime(lt["createdAt"])};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "launchTemplates");
  for (const Json& lt : SelectObjects(call, kLaunchTemplateKind, templates, "LaunchTemplateId", fields)) {
    if (!names.empty() && std::find(names.begin(), names.end(), lt["name"]) == names.end()) continue;
    WriteLaunchTemplate(call, AddItem(set), lt);
  }
}

// With a template: the versions named ($Latest, $Default, numbers), else every version
// between MinVersion and MaxVersion. Without one: $Latest and/or $Default of every template.
void DescribeLaunchTemplateVersions(Ec2Call& call, pugi::xml_node response) {
  std::vector<std::string> specs = call.NumberedList("LaunchTemplateVersion");
  pugi::xml_node set = AddChild(response, "launchTemplateVersionSet");
  if (!call.Has("LaunchTemplateId") && !call.Has("LaunchTemplateName")) {
    bool aliases_only = !specs.empty() && std::all_of(specs.begin(), specs.end(), [](const std::string& s) {
      return s == "$Latest" || s == "$Default";
    });
    if (!aliases_only) {
      throw InvalidParameterValue(
          "To describe the launch template data for all your launch templates, specify $Latest, $Default, or both "
          "for versions, and omit the launch template ID, name and version numbers.");
    }
    for (const Json& lt : ListIn(call, kLaunchTemplateKind)) {
      for (const std::string& spec : specs) WriteTemplateVersion(call, AddItem(set), lt, TemplateVersion(lt, spec));
    }
    return;
  }
  Json lt = RequireNamedTemplate(call);
  if (!specs.empty()) {
    for (const std::string& spec : specs) WriteTemplateVersion(call, AddItem(set), lt, TemplateVersion(lt, spec));
    return;
  }
  int64_t min = call.GetInt("MinVersion").value_or(1);
  int64_t max = call.GetInt("MaxVersion").value_or(std::numeric_limits<int64_t>::max());
  for (const Json& version : lt["versions"]) {
    int64_t number = version["number"];
    if (number >= min && number <= max) WriteTemplateVersion(call, AddItem(set), lt, version);
  }
}

// The new version is LaunchTemplateData alone, or laid over SourceVersion's data (each
// member given replaces the source's whole member).
void CreateLaunchTemplateVersion(Ec2Call& call, pugi::xml_node response) {
  Json lt = RequireNamedTemplate(call);
  std::string token = ReadLaunchTemplateClientToken(call);
  std::string description = ReadVersionDescription(call);
  Json data = ReadTemplateData(call);
  if (call.Has("SourceVersion")) {
    Json base = TemplateVersion(lt, call.Get("SourceVersion"))["data"];
    for (auto& [key, value] : data.items()) base[key] = value;
    data = base;
  }
  if (!token.empty()) {
    for (const Json& version : lt["versions"]) {
      if (version.value("clientToken", "") != token) continue;
      if (version["data"] != data || version.value("description", "") != description) {
        throw ApiError(400, "IdempotentParameterMismatch", "Client token already used before with different parameters.");
      }
      WriteTemplateVersion(call, AddChild(response, "launchTemplateVersion"), lt, version);
      return;
    }
  }
  int64_t number = lt["latestVersion"].get<int64_t>() + 1;
  Json version = NewTemplateVersion(call, number, description, data);
  if (!token.empty()) version["clientToken"] = token;
  lt["versions"].push_back(version);
  lt["latestVersion"] = number;
  Save(call, kLaunchTemplateKind, lt);
  WriteTemplateVersion(call, AddChild(response, "launchTemplateVersion"), lt, version);
}

void ModifyLaunchTemplate(Ec2Call& call, pugi::xml_node response) {
  Json lt = RequireNamedTemplate(call);
  if (call.Has("SetDefaultVersion")) {
    int64_t number = TemplateVersion(lt, call.Get("SetDefaultVersion"))["number"];
    lt["defaultVersion"] = number;
    Save(call, kLaunchTemplateKind, lt);
  }
  WriteLaunchTemplate(call, AddChild(response, "launchTemplate"), lt);
}

void DeleteLaunchTemplate(Ec2Call& call, pugi::xml_node response) {
  Json lt = RequireNamedTemplate(call);
  Remove(call, kLaunchTemplateKind, lt["id"]);
  WriteLaunchTemplate(call, AddChild(response, "launchTemplate"), lt);
}

}  // namespace

void AddLaunchTemplateActions(Ec2Actions& actions) {
  actions["CreateLaunchTemplate"] = CreateLaunchTemplate;
  actions["DescribeLaunchTemplates"] = DescribeLaunchTemplates;
  actions["DescribeLaunchTemplateVersions"] = DescribeLaunchTemplateVersions;
  actions["CreateLaunchTemplateVersion"] = CreateLaunchTemplateVersion;
  actions["ModifyLaunchTemplate"] = ModifyLaunchTemplate;
  actions["DeleteLaunchTemplate"] = DeleteLaunchTemplate;
}

}  // namespace strata::sandbox
