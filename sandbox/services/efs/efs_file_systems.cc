// EFS file systems: CreateFileSystem (idempotent by CreationToken: a repeated token is
// FileSystemAlreadyExists naming the file system), DescribeFileSystems, UpdateFileSystem
// (throughput), DeleteFileSystem (FileSystemInUse while mount targets remain), the
// lifecycle configuration, and tags on file systems and access points.
#include <set>

#include "sandbox/services/efs/efs_common.h"

namespace strata::sandbox::efs {

namespace {

//! The throughput settings of a create or update, checked as EFS does.
void EfsCheckThroughput(const std::string& mode, const std::optional<double>& mibps) {
  if (mode != "bursting" && mode != "provisioned" && mode != "elastic") {
    ThrowBadRequest("ThroughputMode must be one of bursting, provisioned, elastic.");
  }
  if (mode == "provisioned" && !mibps) {
    ThrowBadRequest("ProvisionedThroughputInMibps is required when ThroughputMode is provisioned.");
  }
  if (mode != "provisioned" && mibps) {
    ThrowBadRequest("ProvisionedThroughputInMibps may only be set when ThroughputMode is provisioned.");
  }
  if (mibps && (*mibps < 1 || *mibps > 3414)) {
    ThrowBadRequest("ProvisionedThroughputInMibps must be between 1 and 3414.");
  }
}

//! The file system as EFS describes it now.
Json FileSystemView(const ServiceContext& ctx, const Json& doc) {
  Json view = doc["view"];
  view["LifeCycleState"] = LifeCycleState(ctx, doc);
  int mount_targets = 0;
  for (const Json& mt : ListLive(ctx, kMountTargetKind)) {
    if (mt["view"].value("FileSystemId", "") == view.value("FileSystemId", "")) ++mount_targets;
  }
  view["NumberOfMountTargets"] = mount_targets;
  SetNameFromTags(view);
  return view;
}

const std::set<std::string>& EfsTransitionDays() {
  static const std::set<std::string> kDays = {"AFTER_1_DAY",   "AFTER_7_DAYS",   "AFTER_14_DAYS",
                                              "AFTER_30_DAYS", "AFTER_60_DAYS",  "AFTER_90_DAYS",
                                              "AFTER_180_DAYS", "AFTER_270_DAYS", "AFTER_365_DAYS"};
  return kDays;
}

//! The Tags of the file system or access point `id`'s document, and its kind.
std::pair<const char*, Json> TaggedResource(const ServiceContext& ctx, const std::string& id) {
  if (id.rfind("fsap-", 0) == 0) {
    std::optional<Json> ap = FindLive(ctx, kAccessPointKind, id);
    if (!ap) throw EfsError(404, "AccessPointNotFound", "Access point '" + id + "' does not exist.");
    return {kAccessPointKind, *ap};
  }
  return {kFileSystemKind, RequireFileSystem(ctx, id)};
}

}  // namespace

Response CreateFileSystem(ServiceContext& ctx) {
  Json body = ctx.request.JsonBody();
  std::string token = OptionalString(body, "CreationToken").value_or("");
  if (token.empty() || token.size() > 64) ThrowBadRequest("CreationToken must be 1 to 64 characters long.");
  for (const Json& doc : ListLive(ctx, kFileSystemKind)) {
    if (doc["view"].value("CreationToken", "") == token) {
      std::string id = doc["view"].value("FileSystemId", "");
      throw EfsError(409, "FileSystemAlreadyExists", "File system '" + id + "' already exists with creation token '" + token + "'.",
                     Json{{"FileSystemId", id}});
    }
  }
  std::string performance = OptionalString(body, "PerformanceMode").value_or("generalPurpose");
  if (performance != "generalPurpose" && performance != "maxIO") {
    ThrowBadRequest("PerformanceMode must be generalPurpose or maxIO.");
  }
  std::string throughput = OptionalString(body, "ThroughputMode").value_or("bursting");
  std::optional<double> mibps = OptionalNumber(body, "ProvisionedThroughputInMibps");
  EfsCheckThroughput(throughput, mibps);
  if (performance == "maxIO" && throughput == "elastic") {
    ThrowBadRequest("Elastic throughput is not supported with the maxIO performance mode.");
  }
  bool encrypted = OptionalBool(body, "Encrypted").value_or(false);
  std::optional<std::string> kms = OptionalString(body, "KmsKeyId");
  if (kms && !encrypted) ThrowBadRequest("KmsKeyId may only be given when Encrypted is true.");
  std::string id = ctx.world.NewId("fs");
  Json view = {{"OwnerId", ctx.settings.account_id},
               {"CreationToken", token},
               {"FileSystemId", id},
               {"FileSystemArn", EfsArn(ctx, "file-system/" + id)},
               {"SizeInBytes", {{"Value", 6144}, {"ValueInIA", 0}, {"ValueInStandard", 6144}, {"ValueInArchive", 0}}},
               {"PerformanceMode", performance},
               {"Encrypted", encrypted},
               {"ThroughputMode", throughput},
               {"Tags", CheckedTagList(body)},
               {"FileSystemProtection", {{"ReplicationOverwriteProtection", "ENABLED"}}}};
  if (encrypted) {
    // Without a key, EFS uses the account's AWS managed key for EFS (aws/elasticfilesystem).
    view["KmsKeyId"] = kms.value_or("arn:aws:kms:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":key/" +
                                    ctx.world.NewUuid());
  }
  if (mibps) view["ProvisionedThroughputInMibps"] = *mibps;
  if (auto zone = OptionalString(body, "AvailabilityZoneName")) view["AvailabilityZoneName"] = *zone;
  Json doc = NewDocument(ctx, view);
  doc["lifecyclePolicies"] = Json::array();
  ctx.world.Put(kFileSystemKind, id, doc);
  return EfsResponse(ctx, FileSystemView(ctx, doc), 201);
}

Response DescribeFileSystems(ServiceContext& ctx) {
  std::string id = QueryValue(ctx, "FileSystemId"), token = QueryValue(ctx, "CreationToken");
  std::vector<Json> views;
  if (!id.empty()) {
    Json doc = RequireFileSystem(ctx, id);
    if (token.empty() || doc["view"].value("CreationToken", "") == token) views.push_back(FileSystemView(ctx, doc));
  } else {
    for (const Json& doc : ListLive(ctx, kFileSystemKind)) {
      if (token.empty() || doc["view"].value("CreationToken", "") == token) views.push_back(FileSystemView(ctx, doc));
    }
  }
  auto [page, next] = Page(ctx, views, "MaxItems", "Marker", 100);
  Json out = {{"FileSystems", page}};
  if (!QueryValue(ctx, "Marker").empty()) out["Marker"] = QueryValue(ctx, "Marker");
  if (!next.empty()) out["NextMarker"] = next;
  return EfsResponse(ctx, out);
}

Response UpdateFileSystem(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireFileSystem(ctx, id);
  RequireFileSystemAvailable(ctx, doc);
  Json body = ctx.request.JsonBody();
  std::string throughput = OptionalString(body, "ThroughputMode").value_or(doc["view"].value("ThroughputMode", "bursting"));
  std::optional<double> mibps = OptionalNumber(body, "ProvisionedThroughputInMibps");
  if (!mibps && throughput == "provisioned" && doc["view"].contains("ProvisionedThroughputInMibps")) {
    mibps = doc["view"]["ProvisionedThroughputInMibps"].get<double>();
  }
  EfsCheckThroughput(throughput, mibps);
  doc["view"]["ThroughputMode"] = throughput;
  if (mibps) {
    doc["view"]["ProvisionedThroughputInMibps"] = *mibps;
  } else {
    doc["view"].erase("ProvisionedThroughputInMibps");
  }
  BeginTimedUpdate(ctx, doc["lifecycle"], ctx.settings.efs_delay);
  ctx.world.Put(kFileSystemKind, id, doc);
  return EfsResponse(ctx, FileSystemView(ctx, doc), 202);
}

Response DeleteFileSystem(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireFileSystem(ctx, id);
  if (LifeCycleState(ctx, doc) == "deleting") return EfsResponse(ctx, Json::object(), 204);
  int mount_targets = FileSystemView(ctx, doc).value("NumberOfMountTargets", 0);
  if (mount_targets > 0) {
    throw EfsError(409, "FileSystemInUse", "File system '" + id + "' has " + std::to_string(mount_targets) +
                                               " mount target(s); delete them first.");
  }
  for (const Json& ap : ListLive(ctx, kAccessPointKind)) {
    if (ap["view"].value("FileSystemId", "") == id) ctx.world.Erase(kAccessPointKind, ap["view"].value("AccessPointId", ""));
  }
  BeginTimedDelete(ctx, doc["lifecycle"], ctx.settings.efs_delay);
  ctx.world.Put(kFileSystemKind, id, doc);
  return EfsResponse(ctx, Json::object(), 204);
}

Response PutLifecycleConfiguration(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireFileSystem(ctx, id);
  RequireFileSystemAvailable(ctx, doc);
  Json body = ctx.request.JsonBody();
  auto policies = body.find("LifecyclePolicies");
  if (policies == body.end() || !policies->is_array()) ThrowBadRequest("LifecyclePolicies must be a list.");
  if (policies->size() > 3) ThrowBadRequest("At most 3 lifecycle policies may be given.");
  std::set<std::string> seen;
  for (const Json& policy : *policies) {
    if (!policy.is_object() || policy.size() != 1) {
      ThrowBadRequest("Each LifecyclePolicy must hold exactly one of TransitionToIA, TransitionToPrimaryStorageClass, "
                      "TransitionToArchive.");
    }
    std::string key = policy.begin().key();
    const Json& value = policy.begin().value();
    bool days = key == "TransitionToIA" || key == "TransitionToArchive";
    if (!value.is_string() || (days && !EfsTransitionDays().count(value.get<std::string>())) ||
        (key == "TransitionToPrimaryStorageClass" && value != "AFTER_1_ACCESS") ||
        (!days && key != "TransitionToPrimaryStorageClass")) {
      ThrowBadRequest("Invalid lifecycle policy " + policy.dump() + ".");
    }
    if (!seen.insert(key).second) ThrowBadRequest("Lifecycle policy " + key + " is given twice.");
  }
  doc["lifecyclePolicies"] = *policies;
  ctx.world.Put(kFileSystemKind, id, doc);
  return EfsResponse(ctx, Json{{"LifecyclePolicies", *policies}});
}

Response DescribeLifecycleConfiguration(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireFileSystem(ctx, id);
  return EfsResponse(ctx, Json{{"LifecyclePolicies", doc.value("lifecyclePolicies", Json::array())}});
}

Response TagResource(ServiceContext& ctx, const std::string& id) {
  auto [kind, doc] = TaggedResource(ctx, id);
  Json changes = CheckedTagList(ctx.request.JsonBody());
  Json merged = MergeTagList(doc["view"]["Tags"], changes);
  if (merged.size() > 50) ThrowBadRequest("A resource can have at most 50 tags.");
  doc["view"]["Tags"] = merged;
  ctx.world.Put(kind, id, doc);
  return EfsResponse(ctx, Json::object());
}

Response UntagResource(ServiceContext& ctx, const std::string& id) {
  auto [kind, doc] = TaggedResource(ctx, id);
  doc["view"]["Tags"] = RemoveTagKeys(doc["view"]["Tags"], QueryValues(ctx, "tagKeys"));
  ctx.world.Put(kind, id, doc);
  return EfsResponse(ctx, Json::object());
}

Response ListTagsForResource(ServiceContext& ctx, const std::string& id) {
  auto [kind, doc] = TaggedResource(ctx, id);
  std::vector<Json> tags(doc["view"]["Tags"].begin(), doc["view"]["Tags"].end());
  auto [page, next] = Page(ctx, tags, "MaxResults", "NextToken", 100);
  Json out = {{"Tags", page}};
  if (!next.empty()) out["NextToken"] = next;
  return EfsResponse(ctx, out);
}

}  // namespace strata::sandbox::efs
