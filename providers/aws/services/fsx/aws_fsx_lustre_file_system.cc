// aws_fsx_lustre_file_system: an FSx for Lustre file system over CreateFileSystem /
// DescribeFileSystems / UpdateFileSystem / TagResource / UntagResource / DeleteFileSystem,
// with Terraform's attribute names. The id is the file system id ("fs-…"), which also
// imports it.
//
// Create sends the engine's idempotency token as ClientRequestToken: FSx answers a repeated
// token (with the same parameters) with the file system it already made, so a recovery
// sends the create again. FSx never tells the token back, so the create also tags the file
// system with it (left out of tags/tags_all): a destroy that meets an interrupted create
// finds it by that tag. A create waits CREATING → AVAILABLE (5 to 15 minutes on AWS, with
// progress), an update until the file system is AVAILABLE again with its administrative
// actions done, a delete until it is gone. storage_capacity (increase only),
// per_unit_storage_throughput (PERSISTENT_2), auto_import_policy, data_compression_type and
// weekly_maintenance_start_time change in place; the rest forces a new file system.
// security_group_ids is not in FSx's answers: the state keeps what was written.

#include <chrono>

#include "providers/aws/common/json_members.h"
#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/wait.h"
#include "providers/aws/services/fsx/fsx_api.h"
#include "providers/aws/services/fsx/fsx_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

constexpr Duration kFsxWait{std::chrono::minutes(30)};

Value FsxTextOrNull(const json& j, const char* key) {
  std::string s = JsonString(j, key);
  return s.empty() ? Value() : Value::String(s);
}

Value FsxNumberOrNull(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? Value::Number(it->get<double>()) : Value();
}

json FsxTagList(const TagMap& tags) {
  json out = json::array();
  for (const auto& [k, v] : tags) out.push_back({{"Key", k}, {"Value", v}});
  return out;
}

TagMap FsxTagMap(const json& fs, std::string* token) {
  TagMap out;
  for (const json& tag : fs.value("Tags", json::array())) out[JsonString(tag, "Key")] = JsonString(tag, "Value");
  auto it = out.find(kCreateTokenTag);
  if (token) *token = it == out.end() ? "" : it->second;
  if (it != out.end()) out.erase(it);
  return out;
}

class AwsFsxLustreFileSystem final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_fsx_lustre_file_system",
                         {{"storage_capacity", Optional("number")},
                          {"subnet_ids", Required("list(string)", true)},
                          {"security_group_ids", Optional("set(string)", true)},
                          {"deployment_type", OptionalComputed("string", true)},
                          {"storage_type", OptionalComputed("string", true)},
                          {"per_unit_storage_throughput", Optional("number")},
                          {"import_path", Optional("string", true)},
                          {"export_path", OptionalComputed("string", true)},
                          {"imported_file_chunk_size", OptionalComputed("number", true)},
                          {"auto_import_policy", OptionalComputed("string")},
                          {"data_compression_type", OptionalComputed("string")},
                          {"file_system_type_version", OptionalComputed("string", true)},
                          {"weekly_maintenance_start_time", OptionalComputed("string")},
                          {"kms_key_id", OptionalComputed("string", true)},
                          {"tags", Optional("map(string)")},
                          {"tags_all", Computed("map(string)")},
                          {"arn", Computed("string")},
                          {"dns_name", Computed("string")},
                          {"mount_name", Computed("string")},
                          {"network_interface_ids", Computed("list(string)")},
                          {"owner_id", Computed("string")},
                          {"vpc_id", Computed("string")}});
  }

  //! ClientRequestToken (see the top): a recovery sends the same one again.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  //! A destroy's look needs only the token tag.
  std::vector<std::string> RecoveryKey() const override { return {}; }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    Value deployment = Get(config, "deployment_type");
    std::string type = deployment.IsString() ? deployment.AsString() : "SCRATCH_1";
    if (deployment.IsString() && type != "SCRATCH_1" && type != "SCRATCH_2" && type != "PERSISTENT_1" && type != "PERSISTENT_2") {
      diags.Error("Invalid deployment_type", "deployment_type must be SCRATCH_1, SCRATCH_2, PERSISTENT_1 or PERSISTENT_2, not \"" + type + "\".");
      return diags;
    }
    Value capacity = Get(config, "storage_capacity");
    std::string rule;
    if (capacity.IsNumber() && (deployment.IsString() || deployment.IsNull()) && !ValidLustreCapacity(capacity.AsNumber(), type, &rule)) {
      diags.Error("Invalid storage_capacity", "A " + type + " Lustre file system takes " + rule + ", not " +
                                                  std::to_string(static_cast<long long>(capacity.AsNumber())) + ".");
    }
    bool persistent = type.rfind("PERSISTENT", 0) == 0;
    if (deployment.IsString() || deployment.IsNull()) {
      if (persistent && Get(config, "per_unit_storage_throughput").IsNull()) {
        diags.Error("Missing per_unit_storage_throughput", "A " + type + " Lustre file system needs per_unit_storage_throughput.");
      }
      if (!persistent && Get(config, "per_unit_storage_throughput").IsNumber()) {
        diags.Error("Invalid per_unit_storage_throughput", "per_unit_storage_throughput is only for PERSISTENT deployment types.");
      }
    }
    return diags;
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    json lustre = json::object();
    auto text = [&](const char* attr, const char* member) {
      if (Get(planned, attr).IsString()) lustre[member] = GetString(planned, attr);
    };
    text("deployment_type", "DeploymentType");
    text("import_path", "ImportPath");
    text("export_path", "ExportPath");
    text("auto_import_policy", "AutoImportPolicy");
    text("data_compression_type", "DataCompressionType");
    text("weekly_maintenance_start_time", "WeeklyMaintenanceStartTime");
    if (auto n = GetNumber(planned, "per_unit_storage_throughput")) lustre["PerUnitStorageThroughput"] = static_cast<int64_t>(*n);
    if (auto n = GetNumber(planned, "imported_file_chunk_size")) lustre["ImportedFileChunkSize"] = static_cast<int64_t>(*n);
    json body = {{"FileSystemType", "LUSTRE"},
                 {"SubnetIds", GetStringList(planned, "subnet_ids")},
                 {"LustreConfiguration", lustre}};
    if (auto n = GetNumber(planned, "storage_capacity")) body["StorageCapacity"] = static_cast<int64_t>(*n);
    if (Get(planned, "security_group_ids").IsSequence()) body["SecurityGroupIds"] = GetStringList(planned, "security_group_ids");
    if (Get(planned, "storage_type").IsString()) body["StorageType"] = GetString(planned, "storage_type");
    if (Get(planned, "file_system_type_version").IsString()) body["FileSystemTypeVersion"] = GetString(planned, "file_system_type_version");
    if (Get(planned, "kms_key_id").IsString()) body["KmsKeyId"] = GetString(planned, "kms_key_id");
    TagMap tags = TagsOnCreate(ctx, planned);
    if (!tags.empty()) body["Tags"] = FsxTagList(tags);
    if (!ctx.idempotency_token.empty()) body["ClientRequestToken"] = ctx.idempotency_token;
    Result<json> created = CallFsx(*session_, ctx, "CreateFileSystem", body);
    if (!created.ok()) {
      ApplyResult failed = CreateFailed("CreateFileSystem", created.error());
      if (created.error().code == "IncompatibleParameterError" && !ctx.idempotency_token.empty()) {
        failed.diags.Error("FSx refused the create's token", ctx.address + ": an interrupted create with this token made a file system "
                                                              "with other parameters; destroy it or import it.");
      }
      return failed;
    }
    std::string id = JsonString((*created)["FileSystem"], "FileSystemId");
    Diagnostics diags = WaitSettled(ctx, id, "creation");
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  //! The file system tagged with this create's token (see the top).
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    if (ctx.idempotency_token.empty()) return {Value(), true, {}};
    json request = json::object();
    for (;;) {
      Result<json> page = CallFsx(*session_, ctx, "DescribeFileSystems", request);
      if (!page.ok()) return {Value(), false, AwsErrorDiag("DescribeFileSystems", page.error())};
      for (const json& fs : page->value("FileSystems", json::array())) {
        std::string token;
        FsxTagMap(fs, &token);
        if (token == ctx.idempotency_token) return Read(ctx, With(planned, "id", Value::String(JsonString(fs, "FileSystemId"))));
      }
      std::string next = JsonString(*page, "NextToken");
      if (next.empty()) return {Value(), true, {}};
      request["NextToken"] = next;
    }
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    Result<std::optional<json>> got = Describe(ctx, id);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("DescribeFileSystems", got.error())};
    if (!got->has_value()) return {Value(), true, {}};
    const json& fs = **got;
    const json lustre = fs.value("LustreConfiguration", json::object());
    const json repository = lustre.value("DataRepositoryConfiguration", json::object());
    TagMap remote = FsxTagMap(fs, nullptr);
    ValueList enis;
    for (const json& eni : fs.value("NetworkInterfaceIds", json::array())) enis.push_back(Value::String(eni.get<std::string>()));
    ValueList subnets;
    for (const json& subnet : fs.value("SubnetIds", json::array())) subnets.push_back(Value::String(subnet.get<std::string>()));
    return {Value::Object({
                {"id", Value::String(id)},
                {"storage_capacity", FsxNumberOrNull(fs, "StorageCapacity")},
                {"subnet_ids", Value::List(std::move(subnets))},
                {"security_group_ids", Get(prior, "security_group_ids")},
                {"deployment_type", Value::String(JsonString(lustre, "DeploymentType"))},
                {"storage_type", Value::String(JsonString(fs, "StorageType"))},
                {"per_unit_storage_throughput", FsxNumberOrNull(lustre, "PerUnitStorageThroughput")},
                {"import_path", FsxTextOrNull(repository, "ImportPath")},
                {"export_path", FsxTextOrNull(repository, "ExportPath")},
                {"imported_file_chunk_size", FsxNumberOrNull(repository, "ImportedFileChunkSize")},
                {"auto_import_policy", FsxTextOrNull(repository, "AutoImportPolicy")},
                {"data_compression_type", Value::String(JsonString(lustre, "DataCompressionType"))},
                {"file_system_type_version", FsxTextOrNull(fs, "FileSystemTypeVersion")},
                {"weekly_maintenance_start_time", FsxTextOrNull(lustre, "WeeklyMaintenanceStartTime")},
                {"kms_key_id", FsxTextOrNull(fs, "KmsKeyId")},
                {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                {"tags_all", TagsValue(remote)},
                {"arn", Value::String(JsonString(fs, "ResourceARN"))},
                {"dns_name", Value::String(JsonString(fs, "DNSName"))},
                {"mount_name", Value::String(JsonString(lustre, "MountName"))},
                {"network_interface_ids", Value::List(std::move(enis))},
                {"owner_id", Value::String(JsonString(fs, "OwnerId"))},
                {"vpc_id", Value::String(JsonString(fs, "VpcId"))},
            }),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    json lustre = json::object();
    auto changed = [&](const char* attr) { return !Get(planned, attr).Equals(Get(prior, attr)) && !Get(planned, attr).IsNull(); };
    if (changed("weekly_maintenance_start_time")) lustre["WeeklyMaintenanceStartTime"] = GetString(planned, "weekly_maintenance_start_time");
    if (changed("auto_import_policy")) lustre["AutoImportPolicy"] = GetString(planned, "auto_import_policy");
    if (changed("data_compression_type")) lustre["DataCompressionType"] = GetString(planned, "data_compression_type");
    if (changed("per_unit_storage_throughput")) {
      lustre["PerUnitStorageThroughput"] = static_cast<int64_t>(GetNumber(planned, "per_unit_storage_throughput").value_or(0));
    }
    json body = {{"FileSystemId", id}};
    if (!lustre.empty()) body["LustreConfiguration"] = lustre;
    if (changed("storage_capacity")) body["StorageCapacity"] = static_cast<int64_t>(GetNumber(planned, "storage_capacity").value_or(0));
    Diagnostics diags;
    if (body.size() > 1) {
      Result<json> answer = CallFsx(*session_, ctx, "UpdateFileSystem", body);
      diags = answer.ok() ? WaitSettled(ctx, id, "update") : AwsErrorDiag("UpdateFileSystem", answer.error());
    }
    if (!diags.HasErrors()) diags = UpdateTags(ctx, GetString(prior, "arn"), GetStringMap(prior, "tags_all"), WantedTags(planned));
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    Result<json> deleted = CallFsx(*session_, ctx, "DeleteFileSystem", json{{"FileSystemId", id}});
    if (!deleted.ok()) {
      if (deleted.error().code == kFsxFileSystemNotFound) return {};
      return {AwsErrorDiag("DeleteFileSystem", deleted.error())};
    }
    return {WaitFor(*session_, ctx, "FSx file system " + id + " to be deleted", [&]() {
      WaitPoll poll;
      Result<std::optional<json>> got = Describe(ctx, id);
      if (!got.ok()) {
        poll.diags = AwsErrorDiag("DescribeFileSystems", got.error());
      } else {
        poll.done = !got->has_value();
        if (got->has_value()) poll.status = JsonString(**got, "Lifecycle");
      }
      return poll;
    }, kFsxWait)};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.rfind("fs-", 0) != 0) {
      return {Value(), Error("Invalid import id", "An aws_fsx_lustre_file_system is imported by its file system id (\"fs-…\"), not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 private:
  Result<std::optional<json>> Describe(const OperationContext& ctx, const std::string& id) const {
    Result<json> got = CallFsx(*session_, ctx, "DescribeFileSystems", json{{"FileSystemIds", json::array({id})}});
    if (!got.ok()) {
      if (got.error().code == kFsxFileSystemNotFound) return std::optional<json>();
      return got.error();
    }
    for (const json& fs : got->value("FileSystems", json::array())) {
      if (JsonString(fs, "FileSystemId") == id) return std::optional<json>(fs);
    }
    return std::optional<json>();
  }

  //! Waits until the file system is AVAILABLE with no administrative action in progress;
  //! FAILED or MISCONFIGURED end the wait with FSx's reason.
  Diagnostics WaitSettled(const OperationContext& ctx, const std::string& id, const std::string& what) const {
    bool told = false;
    return WaitFor(*session_, ctx, "FSx file system " + id + " " + what + " (5 to 15 minutes on AWS)", [&]() {
      WaitPoll poll;
      Result<std::optional<json>> got = Describe(ctx, id);
      if (!got.ok()) {
        poll.diags = AwsErrorDiag("DescribeFileSystems", got.error());
        return poll;
      }
      if (!got->has_value()) {
        poll.diags.Error("FSx file system " + id + " disappeared", ctx.address + ": it is gone while waiting for its " + what + ".");
        return poll;
      }
      const json& fs = **got;
      poll.status = JsonString(fs, "Lifecycle");
      if (poll.status == "FAILED" || poll.status == "MISCONFIGURED") {
        std::string reason = fs.contains("FailureDetails") ? JsonString(fs["FailureDetails"], "Message") : "";
        poll.diags.Error("FSx file system " + id + " is " + poll.status,
                         ctx.address + ": " + (reason.empty() ? "FSx gives no reason" : reason) +
                             ". Fix the network settings (subnet, security groups) and replace the file system.");
        return poll;
      }
      bool busy = false;
      for (const json& action : fs.value("AdministrativeActions", json::array())) {
        std::string status = JsonString(action, "Status");
        busy = busy || status == "IN_PROGRESS" || status == "PENDING";
      }
      poll.done = poll.status == "AVAILABLE" && !busy;
      if (!poll.done && !told) {  // WaitFor reports from its second look on: say at once what takes so long
        ctx.Progress("FSx file system " + id + " is " + poll.status + "; its " + what + " takes 5 to 15 minutes on AWS");
        told = true;
      }
      return poll;
    }, kFsxWait);
  }

  Diagnostics UpdateTags(const OperationContext& ctx, const std::string& arn, const TagMap& from, const TagMap& to) const {
    std::vector<std::string> removed = RemovedTagKeys(from, to);
    if (!removed.empty()) {
      Result<json> done = CallFsx(*session_, ctx, "UntagResource", json{{"ResourceARN", arn}, {"TagKeys", removed}});
      if (!done.ok()) return AwsErrorDiag("UntagResource", done.error());
    }
    TagMap changed = ChangedTags(from, to);
    if (changed.empty()) return {};
    Result<json> done = CallFsx(*session_, ctx, "TagResource", json{{"ResourceARN", arn}, {"Tags", FsxTagList(changed)}});
    return done.ok() ? Diagnostics{} : AwsErrorDiag("TagResource", done.error());
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsFsxLustreFileSystem(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsFsxLustreFileSystem>(std::move(session));
}

}  // namespace strata::aws
