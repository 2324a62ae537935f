// The sandbox's FSx service (awsJson 1.1, target prefix AWSSimbaAPIService_v20180301), for
// Lustre file systems: CreateFileSystem (idempotent by ClientRequestToken), DescribeFileSystems,
// UpdateFileSystem (a storage increase leaves the file system UPDATING, as on AWS),
// DeleteFileSystem (DELETING, then gone) and tags, with FSx's checks and refusals: storage
// capacity per deployment type, one subnet that EC2 has (InvalidNetworkSettings), S3 data
// repositories only where AWS allows them. Every lifecycle lasts settings.fsx_delay.
//
// Storage: one World document per file system under kFsxKind, keyed by its id:
// {"region", "lifecycle" (sandbox/timed_lifecycle.h), "token", "request" (the create's
// parameters, to compare a repeated token's), "view" (the FileSystem as FSx describes it
// minus Lifecycle)}.
#include <algorithm>
#include <set>

#include "sandbox/ec2_refs.h"
#include "sandbox/json_service.h"
#include "sandbox/timed_lifecycle.h"

namespace strata::sandbox {
namespace {

constexpr const char* kFsxKind = "fsx.file_system";

ApiError FsxBadRequest(const std::string& message) { return ApiError(400, "BadRequest", message); }

std::optional<Json> FindFsx(JsonCall& call, const std::string& id) {
  std::optional<Json> doc = call.world().Get(kFsxKind, id);
  if (!doc || doc->value("region", "") != RegionOf(call.ctx)) return std::nullopt;
  if (TimedPhaseOf(call.ctx, (*doc)["lifecycle"]) == TimedPhase::Gone) {
    call.world().Erase(kFsxKind, id);
    return std::nullopt;
  }
  return doc;
}

Json RequireFsx(JsonCall& call, const std::string& id) {
  std::optional<Json> doc = FindFsx(call, id);
  if (!doc) throw ApiError(400, "FileSystemNotFound", "File system '" + id + "' does not exist.");
  return *doc;
}

std::string FsxLifecycle(JsonCall& call, const Json& doc) {
  switch (TimedPhaseOf(call.ctx, doc["lifecycle"])) {
    case TimedPhase::Creating:
      return "CREATING";
    case TimedPhase::Updating:
      return "UPDATING";
    case TimedPhase::Deleting:
    case TimedPhase::Gone:
      return "DELETING";
    case TimedPhase::Ready:
      return "AVAILABLE";
  }
  return "AVAILABLE";
}

Json FsxView(JsonCall& call, const Json& doc) {
  Json view = doc["view"];
  std::string lifecycle = FsxLifecycle(call, doc);
  view["Lifecycle"] = lifecycle;
  if (view.contains("AdministrativeActions")) {
    for (Json& action : view["AdministrativeActions"]) {
      action["Status"] = lifecycle == "UPDATING" ? "IN_PROGRESS" : "COMPLETED";
    }
  }
  return view;
}

//! AWS's storage capacity rule for a deployment type (SSD): 1200, 2400, then multiples of
//! 3600 (SCRATCH_1) or 2400 (the others), in GiB.
void CheckStorageCapacity(int64_t capacity, const std::string& deployment) {
  int64_t step = deployment == "SCRATCH_1" ? 3600 : 2400;
  if (capacity == 1200 || capacity == 2400 || (capacity > 0 && capacity % step == 0)) return;
  // FSx's own words ("Invalid Lustre FS storage capacity: 3600. Must be 1200 or a multiple of 2400.").
  throw ApiError(400, "BadRequest",
                 "Invalid Lustre FS storage capacity: " + std::to_string(capacity) + ". Must be 1200, 2400 or a multiple of " +
                     std::to_string(step) + " for " + deployment + ".");
}

std::string FsxString(const Json& obj, const char* key, const std::string& fallback = "") {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_string()) throw ApiError(400, "ValidationException", std::string("The value of ") + key + " must be a string.");
  return it->get<std::string>();
}

std::optional<int64_t> FsxInt(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) throw ApiError(400, "ValidationException", std::string("The value of ") + key + " must be an integer.");
  return it->get<int64_t>();
}

Json FsxTags(const Json& input) {
  Json tags = input.value("Tags", Json::array());
  if (!tags.is_array() || tags.size() > 50) throw FsxBadRequest("Tags must be a list of at most 50 {Key, Value}.");
  for (const Json& tag : tags) {
    if (!tag.is_object() || !tag.contains("Key") || !tag["Key"].is_string() || tag["Key"].get<std::string>().empty() ||
        !tag.contains("Value") || !tag["Value"].is_string()) {
      throw FsxBadRequest("Each tag needs a string Key and Value.");
    }
  }
  return tags;
}

void CheckAutoImport(const std::string& policy) {
  static const std::set<std::string> kPolicies = {"NONE", "NEW", "NEW_CHANGED", "NEW_CHANGED_DELETED"};
  if (!kPolicies.count(policy)) throw FsxBadRequest("AutoImportPolicy must be one of NONE, NEW, NEW_CHANGED, NEW_CHANGED_DELETED.");
}

void CheckCompression(const std::string& type) {
  if (type != "NONE" && type != "LZ4") throw FsxBadRequest("DataCompressionType must be NONE or LZ4.");
}

void CheckThroughput(const std::string& deployment, int64_t throughput) {
  std::set<int64_t> allowed = deployment == "PERSISTENT_1" ? std::set<int64_t>{50, 100, 200}
                                                          : std::set<int64_t>{125, 250, 500, 1000};
  if (!allowed.count(throughput)) {
    throw ApiError(400, "InvalidPerUnitStorageThroughput",
                   "PerUnitStorageThroughput " + std::to_string(throughput) + " is not valid for " + deployment + ".");
  }
}

//! The Lustre configuration of a create, checked and completed as FSx describes it.
Json LustreView(JsonCall& call, const Json& lustre, int64_t capacity) {
  std::string deployment = FsxString(lustre, "DeploymentType", "SCRATCH_1");
  static const std::set<std::string> kDeployments = {"SCRATCH_1", "SCRATCH_2", "PERSISTENT_1", "PERSISTENT_2"};
  if (!kDeployments.count(deployment)) throw FsxBadRequest("DeploymentType must be one of SCRATCH_1, SCRATCH_2, PERSISTENT_1, PERSISTENT_2.");
  CheckStorageCapacity(capacity, deployment);
  bool persistent = deployment.rfind("PERSISTENT", 0) == 0;
  std::optional<int64_t> throughput = FsxInt(lustre, "PerUnitStorageThroughput");
  if (persistent && !throughput) {
    throw ApiError(400, "InvalidPerUnitStorageThroughput", "PerUnitStorageThroughput is required for " + deployment + ".");
  }
  if (!persistent && throughput) throw FsxBadRequest("PerUnitStorageThroughput is only for PERSISTENT deployment types.");
  if (throughput) CheckThroughput(deployment, *throughput);
  Json view = {{"DeploymentType", deployment},
               {"WeeklyMaintenanceStartTime", FsxString(lustre, "WeeklyMaintenanceStartTime", "1:05:00")},
               {"DataCompressionType", FsxString(lustre, "DataCompressionType", "NONE")},
               {"MountName", deployment == "SCRATCH_1" ? std::string("fsx") : call.world().RandomString(8, "abcdefghijklmnopqrstuvwxyz0123456789")},
               {"CopyTagsToBackups", lustre.value("CopyTagsToBackups", false)}};
  CheckCompression(view["DataCompressionType"]);
  if (throughput) view["PerUnitStorageThroughput"] = *throughput;
  std::string import_path = FsxString(lustre, "ImportPath"), export_path = FsxString(lustre, "ExportPath");
  std::string auto_import = FsxString(lustre, "AutoImportPolicy");
  if (import_path.empty() && (!export_path.empty() || !auto_import.empty() || lustre.contains("ImportedFileChunkSize"))) {
    throw FsxBadRequest("ExportPath, AutoImportPolicy and ImportedFileChunkSize need an ImportPath.");
  }
  if (!import_path.empty()) {
    if (deployment == "PERSISTENT_2") {
      throw FsxBadRequest("PERSISTENT_2 file systems link S3 through data repository associations, not ImportPath.");
    }
    if (import_path.rfind("s3://", 0) != 0 || import_path.size() <= 5) {
      throw ApiError(400, "InvalidImportPath", "ImportPath must be an s3:// path, not '" + import_path + "'.");
    }
    std::string bucket = import_path.substr(5, import_path.find('/', 5) - 5);
    if (export_path.empty()) export_path = "s3://" + bucket + "/FSxLustre" + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(call.ctx.now.time_since_epoch()).count());
    if (export_path.rfind("s3://" + bucket, 0) != 0) {
      throw ApiError(400, "InvalidExportPath", "ExportPath must be in the bucket of ImportPath (" + bucket + ").");
    }
    if (!auto_import.empty()) CheckAutoImport(auto_import);
    Json repository = {{"Lifecycle", "AVAILABLE"},
                       {"ImportPath", import_path},
                       {"ExportPath", export_path},
                       {"ImportedFileChunkSize", FsxInt(lustre, "ImportedFileChunkSize").value_or(1024)}};
    if (!auto_import.empty()) repository["AutoImportPolicy"] = auto_import;
    view["DataRepositoryConfiguration"] = repository;
  }
  return view;
}

Json CreateFileSystem(JsonCall& call) {
  const Json& in = call.input;
  std::string token = FsxString(in, "ClientRequestToken");
  Json request = in;
  request.erase("ClientRequestToken");
  if (!token.empty()) {
    for (const auto& [id, doc] : call.world().List(kFsxKind)) {
      if (doc.value("token", "") != token || !FindFsx(call, id)) continue;
      if (doc["request"] != request) {
        throw ApiError(400, "IncompatibleParameterError",
                       "ClientRequestToken '" + token + "' was used for another CreateFileSystem request with different parameters.");
      }
      return Json{{"FileSystem", FsxView(call, doc)}};
    }
  }
  std::string type = FsxString(in, "FileSystemType");
  if (type != "LUSTRE") throw FsxBadRequest("The sandbox serves FileSystemType LUSTRE only, not '" + type + "'.");
  std::optional<int64_t> capacity = FsxInt(in, "StorageCapacity");
  if (!capacity) throw ApiError(400, "MissingFileSystemConfiguration", "StorageCapacity is required.");
  std::string storage_type = FsxString(in, "StorageType", "SSD");
  if (storage_type != "SSD") throw FsxBadRequest("The sandbox serves SSD storage only.");
  Json subnets = in.value("SubnetIds", Json::array());
  if (!subnets.is_array() || subnets.size() != 1 || !subnets[0].is_string()) {
    throw ApiError(400, "InvalidNetworkSettings", "A Lustre file system takes exactly one subnet id.");
  }
  std::optional<Ec2SubnetRef> subnet = FindEc2Subnet(call.ctx, subnets[0]);
  if (!subnet) {
    throw ApiError(400, "InvalidNetworkSettings", "The subnet '" + subnets[0].get<std::string>() + "' does not exist.");
  }
  Json groups = in.value("SecurityGroupIds", Json::array());
  if (!groups.is_array() || groups.size() > 50) throw ApiError(400, "InvalidNetworkSettings", "SecurityGroupIds must list at most 50 ids.");
  for (const Json& group : groups) {
    std::string id = group.is_string() ? group.get<std::string>() : "";
    std::string vpc = Ec2SecurityGroupVpc(call.ctx, id);
    if (vpc.empty()) throw ApiError(400, "InvalidNetworkSettings", "The security group '" + id + "' does not exist.");
    if (vpc != subnet->vpc_id) {
      throw ApiError(400, "InvalidNetworkSettings", "The security group '" + id + "' is not in the subnet's VPC " + subnet->vpc_id + ".");
    }
  }
  Json lustre = in.value("LustreConfiguration", Json::object());
  if (!lustre.is_object()) throw FsxBadRequest("LustreConfiguration must be an object.");
  std::string version = FsxString(in, "FileSystemTypeVersion", "2.15");
  static const std::set<std::string> kVersions = {"2.10", "2.12", "2.15"};
  if (!kVersions.count(version)) throw FsxBadRequest("FileSystemTypeVersion must be 2.10, 2.12 or 2.15.");
  Json lustre_view = LustreView(call, lustre, *capacity);
  if (lustre_view["DeploymentType"] == "PERSISTENT_2" && version == "2.10") {
    throw FsxBadRequest("PERSISTENT_2 file systems need FileSystemTypeVersion 2.12 or later.");
  }
  std::string id = call.world().NewId("fs");
  std::string region = RegionOf(call.ctx);
  Json view = {{"OwnerId", call.account()},
               {"CreationTime", EpochSeconds(call.ctx.now)},
               {"FileSystemId", id},
               {"FileSystemType", "LUSTRE"},
               {"StorageCapacity", *capacity},
               {"StorageType", storage_type},
               {"VpcId", subnet->vpc_id},
               {"SubnetIds", subnets},
               {"NetworkInterfaceIds", Json::array({call.world().NewId("eni"), call.world().NewId("eni")})},
               {"DNSName", id + ".fsx." + region + ".amazonaws.com"},
               {"ResourceARN", "arn:aws:fsx:" + region + ":" + call.account() + ":file-system/" + id},
               {"Tags", FsxTags(in)},
               {"LustreConfiguration", lustre_view},
               {"FileSystemTypeVersion", version}};
  if (in.contains("KmsKeyId")) view["KmsKeyId"] = FsxString(in, "KmsKeyId");
  Json doc = {{"region", region},
              {"lifecycle", NewTimedLifecycle(call.ctx, call.ctx.settings.fsx_delay)},
              {"token", token},
              {"request", request},
              {"view", view}};
  call.world().Put(kFsxKind, id, doc);
  return Json{{"FileSystem", FsxView(call, doc)}};
}

//! One page of `items` by MaxResults (1-2147483647) and NextToken (an index).
Json FsxPage(JsonCall& call, const std::vector<Json>& items, const char* member) {
  size_t start = 0;
  std::string next = FsxString(call.input, "NextToken");
  if (!next.empty()) {
    if (next.size() > 9 || !std::all_of(next.begin(), next.end(), ::isdigit) || std::stoul(next) > items.size()) {
      throw FsxBadRequest("Invalid NextToken.");
    }
    start = std::stoul(next);
  }
  int64_t max = FsxInt(call.input, "MaxResults").value_or(2147483647);
  if (max < 1) throw FsxBadRequest("MaxResults must be at least 1.");
  Json page = Json::array();
  for (size_t i = start; i < items.size() && static_cast<int64_t>(page.size()) < max; ++i) page.push_back(items[i]);
  Json out = {{member, page}};
  if (start + page.size() < items.size()) out["NextToken"] = std::to_string(start + page.size());
  return out;
}

Json DescribeFileSystems(JsonCall& call) {
  std::vector<Json> views;
  Json ids = call.input.value("FileSystemIds", Json::array());
  if (!ids.is_array()) throw FsxBadRequest("FileSystemIds must be a list.");
  if (!ids.empty()) {
    for (const Json& id : ids) views.push_back(FsxView(call, RequireFsx(call, id.is_string() ? id.get<std::string>() : "")));
  } else {
    std::vector<Json> docs;
    for (const auto& [id, doc] : call.world().List(kFsxKind)) {
      if (std::optional<Json> live = FindFsx(call, id)) docs.push_back(*live);
    }
    std::stable_sort(docs.begin(), docs.end(),
                     [](const Json& a, const Json& b) { return a["view"].value("CreationTime", 0.0) < b["view"].value("CreationTime", 0.0); });
    for (const Json& doc : docs) views.push_back(FsxView(call, doc));
  }
  return FsxPage(call, views, "FileSystems");
}

Json UpdateFileSystem(JsonCall& call) {
  std::string id = RequiredJsonString(call.input, "FileSystemId");
  Json doc = RequireFsx(call, id);
  std::string lifecycle = FsxLifecycle(call, doc);
  if (lifecycle != "AVAILABLE") {
    throw FsxBadRequest("File system '" + id + "' is " + lifecycle + "; it can be updated only when AVAILABLE.");
  }
  Json& view = doc["view"];
  Json& lustre_view = view["LustreConfiguration"];
  std::string deployment = lustre_view.value("DeploymentType", "SCRATCH_1");
  Json lustre = call.input.value("LustreConfiguration", Json::object());
  if (!lustre.is_object()) throw FsxBadRequest("LustreConfiguration must be an object.");
  if (lustre.contains("WeeklyMaintenanceStartTime")) lustre_view["WeeklyMaintenanceStartTime"] = FsxString(lustre, "WeeklyMaintenanceStartTime");
  if (lustre.contains("DataCompressionType")) {
    CheckCompression(FsxString(lustre, "DataCompressionType"));
    lustre_view["DataCompressionType"] = FsxString(lustre, "DataCompressionType");
  }
  if (lustre.contains("AutoImportPolicy")) {
    if (!lustre_view.contains("DataRepositoryConfiguration")) throw FsxBadRequest("AutoImportPolicy needs a file system with an ImportPath.");
    CheckAutoImport(FsxString(lustre, "AutoImportPolicy"));
    lustre_view["DataRepositoryConfiguration"]["AutoImportPolicy"] = FsxString(lustre, "AutoImportPolicy");
  }
  bool updating = false;
  if (std::optional<int64_t> throughput = FsxInt(lustre, "PerUnitStorageThroughput")) {
    if (deployment != "PERSISTENT_2") throw FsxBadRequest("PerUnitStorageThroughput can be changed only on PERSISTENT_2 file systems.");
    CheckThroughput(deployment, *throughput);
    updating = *throughput != lustre_view.value("PerUnitStorageThroughput", int64_t{0});
    lustre_view["PerUnitStorageThroughput"] = *throughput;
  }
  if (std::optional<int64_t> capacity = FsxInt(call.input, "StorageCapacity")) {
    int64_t current = view.value("StorageCapacity", int64_t{0});
    if (deployment == "SCRATCH_1") throw FsxBadRequest("The storage capacity of a SCRATCH_1 file system cannot be changed.");
    if (*capacity < current) throw FsxBadRequest("Storage capacity can only be increased (it is " + std::to_string(current) + " GiB).");
    CheckStorageCapacity(*capacity, deployment);
    if (*capacity != current) {
      view["StorageCapacity"] = *capacity;
      view["AdministrativeActions"] = Json::array({Json{{"AdministrativeActionType", "FILE_SYSTEM_UPDATE"},
                                                        {"RequestTime", EpochSeconds(call.ctx.now)},
                                                        {"TargetFileSystemValues", {{"StorageCapacity", *capacity}}}}});
      updating = true;
    }
  }
  if (updating) BeginTimedUpdate(call.ctx, doc["lifecycle"], call.ctx.settings.fsx_delay);
  call.world().Put(kFsxKind, id, doc);
  return Json{{"FileSystem", FsxView(call, doc)}};
}

Json DeleteFileSystem(JsonCall& call) {
  std::string id = RequiredJsonString(call.input, "FileSystemId");
  Json doc = RequireFsx(call, id);
  if (FsxLifecycle(call, doc) != "DELETING") {
    BeginTimedDelete(call.ctx, doc["lifecycle"], call.ctx.settings.fsx_delay);
    call.world().Put(kFsxKind, id, doc);
  }
  return Json{{"FileSystemId", id}, {"Lifecycle", "DELETING"}, {"LustreResponse", Json::object()}};
}

//! The file system whose ARN is `arn`; ResourceNotFound otherwise.
std::pair<std::string, Json> TaggedFsx(JsonCall& call) {
  std::string arn = RequiredJsonString(call.input, "ResourceARN");
  std::string id = arn.substr(arn.rfind('/') + 1);
  std::optional<Json> doc = FindFsx(call, id);
  if (!doc || (*doc)["view"].value("ResourceARN", "") != arn) {
    throw ApiError(400, "ResourceNotFound", "The resource '" + arn + "' does not exist.");
  }
  return {id, *doc};
}

Json TagResource(JsonCall& call) {
  auto [id, doc] = TaggedFsx(call);
  Json tags = Json::array();
  Json changes = FsxTags(call.input);
  for (const Json& tag : doc["view"]["Tags"]) {
    if (std::none_of(changes.begin(), changes.end(), [&](const Json& c) { return c["Key"] == tag["Key"]; })) tags.push_back(tag);
  }
  for (const Json& c : changes) tags.push_back(c);
  if (tags.size() > 50) throw FsxBadRequest("A resource can have at most 50 tags.");
  doc["view"]["Tags"] = tags;
  call.world().Put(kFsxKind, id, doc);
  return Json::object();
}

Json UntagResource(JsonCall& call) {
  auto [id, doc] = TaggedFsx(call);
  Json keys = call.input.value("TagKeys", Json::array());
  Json tags = Json::array();
  for (const Json& tag : doc["view"]["Tags"]) {
    if (std::find(keys.begin(), keys.end(), tag["Key"]) == keys.end()) tags.push_back(tag);
  }
  doc["view"]["Tags"] = tags;
  call.world().Put(kFsxKind, id, doc);
  return Json::object();
}

Json ListTagsForResource(JsonCall& call) {
  auto [id, doc] = TaggedFsx(call);
  std::vector<Json> tags(doc["view"]["Tags"].begin(), doc["view"]["Tags"].end());
  return FsxPage(call, tags, "Tags");
}

}  // namespace

std::unique_ptr<Service> NewFsxService() {
  JsonActionTable actions = {{"CreateFileSystem", CreateFileSystem},     {"DescribeFileSystems", DescribeFileSystems},
                             {"UpdateFileSystem", UpdateFileSystem},     {"DeleteFileSystem", DeleteFileSystem},
                             {"TagResource", TagResource},               {"UntagResource", UntagResource},
                             {"ListTagsForResource", ListTagsForResource}};
  return NewJsonService("fsx", {"AWSSimbaAPIService_v20180301", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
