// aws_efs_file_system: an EFS file system over CreateFileSystem / DescribeFileSystems /
// UpdateFileSystem / PutLifecycleConfiguration / TagResource / UntagResource /
// DeleteFileSystem, with Terraform's attribute names. The id is the file system id
// ("fs-…"), which also imports it.
//
// creation_token is EFS's idempotency token: without one in the config, the token is
// "terraform-" and 26 characters derived from the engine's idempotency token, so a create
// sent again after an interruption carries the same one, and EFS answers it with
// FileSystemAlreadyExists: that file system is this create's, and is adopted. (A token the
// user wrote is adopted so only when an earlier attempt of this create may have made it;
// otherwise the file system is someone else's and the error says to import it.) A create
// waits for "available", a delete until the file system is gone; throughput, lifecycle
// policies and tags change in place, encryption, performance mode, the token and the
// One Zone placement force a new file system.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/efs/efs_api.h"
#include "providers/aws/services/efs/efs_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

// Terraform's lifecycle_policy members and EFS's LifecyclePolicy members, in order.
const std::pair<const char*, const char*> kEfsTransitions[] = {
    {"transition_to_ia", "TransitionToIA"},
    {"transition_to_primary_storage_class", "TransitionToPrimaryStorageClass"},
    {"transition_to_archive", "TransitionToArchive"},
};

json LifecyclePolicies(const Value& planned) {
  json out = json::array();
  for (const Value& block : Blocks(planned, "lifecycle_policy")) {
    for (const auto& [attr, member] : kEfsTransitions) {
      if (Get(block, attr).IsString()) out.push_back({{member, GetString(block, attr)}});
    }
  }
  return out;
}

Value LifecycleBlocks(const json& policies) {
  ValueList blocks;
  for (const json& policy : policies) {
    ValueMap block;
    for (const auto& [attr, member] : kEfsTransitions) block[attr] = EfsStringOrNull(policy, member);
    blocks.push_back(Value::Object(std::move(block)));
  }
  return Value::List(std::move(blocks));
}

class AwsEfsFileSystem final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "aws_efs_file_system",
        {{"creation_token", OptionalComputed("string", true)},
         {"availability_zone_name", OptionalComputed("string", true)},
         {"availability_zone_id", Computed("string")},
         {"encrypted", OptionalComputed("bool", true)},
         {"kms_key_id", OptionalComputed("string", true)},
         {"performance_mode", OptionalComputed("string", true)},
         {"throughput_mode", OptionalComputed("string")},
         {"provisioned_throughput_in_mibps", OptionalComputed("number")},
         {"lifecycle_policy",
          Optional("list(object({transition_to_ia=optional(string), transition_to_primary_storage_class=optional(string), "
                   "transition_to_archive=optional(string)}))")},
         {"tags", Optional("map(string)")},
         {"tags_all", Computed("map(string)")},
         {"arn", Computed("string")},
         {"dns_name", Computed("string")},
         {"name", Computed("string")},
         {"number_of_mount_targets", Computed("number")},
         {"owner_id", Computed("string")},
         {"size_in_bytes",
          Computed("list(object({value=number, value_in_ia=number, value_in_standard=number, value_in_archive=number}))")}});
  }

  //! The CreationToken (see the top): a recovery sends the same one again.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  std::vector<std::string> RecoveryKey() const override { return {"creation_token"}; }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    Value mode = Get(config, "throughput_mode");
    if (mode.IsString() && mode.AsString() != "bursting" && mode.AsString() != "provisioned" && mode.AsString() != "elastic") {
      diags.Error("Invalid throughput_mode", "throughput_mode must be bursting, provisioned or elastic, not \"" + mode.AsString() + "\".");
    }
    Value perf = Get(config, "performance_mode");
    if (perf.IsString() && perf.AsString() != "generalPurpose" && perf.AsString() != "maxIO") {
      diags.Error("Invalid performance_mode", "performance_mode must be generalPurpose or maxIO.");
    }
    for (const Value& block : Blocks(config, "lifecycle_policy")) {
      int set = 0;
      for (const auto& [attr, member] : kEfsTransitions) set += Get(block, attr).IsNull() ? 0 : 1;
      if (set > 1) {
        diags.Error("Invalid lifecycle_policy", "Each lifecycle_policy block sets exactly one of transition_to_ia, "
                                                "transition_to_primary_storage_class, transition_to_archive: write one block per transition.");
      }
    }
    return diags;
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string token = CreationToken(ctx, planned);
    json body = {{"CreationToken", token}};
    if (Get(planned, "performance_mode").IsString()) body["PerformanceMode"] = GetString(planned, "performance_mode");
    if (Get(planned, "encrypted").IsBool()) body["Encrypted"] = GetBool(planned, "encrypted", false);
    if (Get(planned, "kms_key_id").IsString()) body["KmsKeyId"] = GetString(planned, "kms_key_id");
    if (Get(planned, "throughput_mode").IsString()) body["ThroughputMode"] = GetString(planned, "throughput_mode");
    if (auto mibps = GetNumber(planned, "provisioned_throughput_in_mibps")) body["ProvisionedThroughputInMibps"] = *mibps;
    if (Get(planned, "availability_zone_name").IsString()) body["AvailabilityZoneName"] = GetString(planned, "availability_zone_name");
    TagMap tags = WantedTags(planned);
    if (!tags.empty()) body["Tags"] = EfsTagList(tags);
    RestJsonRequest call;
    call.method = "POST";
    call.path = EfsPath("file-systems");
    call.body = body;
    Result<json> created = CallEfs(*session_, ctx, "CreateFileSystem", call);
    std::string id;
    if (created.ok()) {
      id = JsonString(*created, "FileSystemId");
    } else if (created.error().code == "FileSystemAlreadyExists") {
      Result<std::optional<json>> existing = DescribeByToken(ctx, token);
      if (!existing.ok()) return CreateFailed("DescribeFileSystems", existing.error());
      if (!existing->has_value()) return CreateFailed("CreateFileSystem", created.error());
      id = JsonString(**existing, "FileSystemId");
      bool ours = !Get(planned, "creation_token").IsString() || ctx.resume_interrupted_create ||
                  created.error().outcome_unknown;
      if (!ours) {
        return {Value(), Error("EFS file system with creation_token \"" + token + "\" already exists",
                               ctx.address + ": file system " + id + " was created with this creation_token by someone else. "
                               "Import it (strata import " + ctx.address + " " + id + ") or choose another creation_token.")};
      }
      ctx.Log(LogLevel::Info, "EFS file system " + id + " already exists with creation token " + token + ": adopting it");
    } else {
      return CreateFailed("CreateFileSystem", created.error());
    }
    Diagnostics diags = WaitAvailable(ctx, id);
    if (!diags.HasErrors() && !LifecyclePolicies(planned).empty()) diags = PutLifecycle(ctx, id, planned);
    return ReadAfterWrite(ctx, With(planned, "creation_token", Value::String(token)), id, diags);
  }

  //! The file system made with this create's CreationToken, if any.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    Result<std::optional<json>> existing = DescribeByToken(ctx, CreationToken(ctx, planned));
    if (!existing.ok()) return {Value(), false, AwsErrorDiag("DescribeFileSystems", existing.error())};
    if (!existing->has_value()) return {Value(), true, {}};
    return Read(ctx, With(planned, "id", Value::String(JsonString(**existing, "FileSystemId"))));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    Result<std::optional<json>> got = Describe(ctx, id);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("DescribeFileSystems", got.error())};
    if (!got->has_value() || JsonString(**got, "LifeCycleState") == "deleted") return {Value(), true, {}};
    const json& fs = **got;
    RestJsonRequest call;
    call.path = EfsPath("file-systems", id, "lifecycle-configuration");
    Result<json> lifecycle = CallEfs(*session_, ctx, "DescribeLifecycleConfiguration", call);
    if (!lifecycle.ok()) return {Value(), false, AwsErrorDiag("DescribeLifecycleConfiguration", lifecycle.error())};
    const json policies = lifecycle->value("LifecyclePolicies", json::array());
    const json size = fs.value("SizeInBytes", json::object());
    auto number = [](const json& j, const char* key) { return Value::Number(j.value(key, 0.0)); };
    Value mibps = fs.contains("ProvisionedThroughputInMibps") && fs["ProvisionedThroughputInMibps"].is_number()
                      ? Value::Number(fs["ProvisionedThroughputInMibps"].get<double>())
                      : Value();
    TagMap remote = EfsTags(fs);
    return {Value::Object({
                {"id", Value::String(id)},
                {"creation_token", Value::String(JsonString(fs, "CreationToken"))},
                {"availability_zone_name", EfsStringOrNull(fs, "AvailabilityZoneName")},
                {"availability_zone_id", EfsStringOrNull(fs, "AvailabilityZoneId")},
                {"encrypted", Value::Bool(fs.value("Encrypted", false))},
                {"kms_key_id", EfsStringOrNull(fs, "KmsKeyId")},
                {"performance_mode", Value::String(JsonString(fs, "PerformanceMode"))},
                {"throughput_mode", Value::String(JsonString(fs, "ThroughputMode"))},
                {"provisioned_throughput_in_mibps", mibps},
                {"lifecycle_policy", NullIfEmptyAndUnset(LifecycleBlocks(policies), Get(prior, "lifecycle_policy"))},
                {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                {"tags_all", TagsValue(remote)},
                {"arn", Value::String(JsonString(fs, "FileSystemArn"))},
                {"dns_name", Value::String(id + ".efs." + session_->Region() + ".amazonaws.com")},
                {"name", EfsStringOrNull(fs, "Name")},
                {"number_of_mount_targets", Value::Number(fs.value("NumberOfMountTargets", 0.0))},
                {"owner_id", Value::String(JsonString(fs, "OwnerId"))},
                {"size_in_bytes", Value::List({Value::Object({{"value", number(size, "Value")},
                                                              {"value_in_ia", number(size, "ValueInIA")},
                                                              {"value_in_standard", number(size, "ValueInStandard")},
                                                              {"value_in_archive", number(size, "ValueInArchive")}})})},
            }),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    Diagnostics diags;
    bool throughput_changed = !Get(planned, "throughput_mode").Equals(Get(prior, "throughput_mode")) ||
                              !Get(planned, "provisioned_throughput_in_mibps").Equals(Get(prior, "provisioned_throughput_in_mibps"));
    if (throughput_changed && Get(planned, "throughput_mode").IsString()) {
      json body = {{"ThroughputMode", GetString(planned, "throughput_mode")}};
      if (auto mibps = GetNumber(planned, "provisioned_throughput_in_mibps");
          mibps && GetString(planned, "throughput_mode") == "provisioned") {
        body["ProvisionedThroughputInMibps"] = *mibps;
      }
      RestJsonRequest call;
      call.method = "PUT";
      call.path = EfsPath("file-systems", id);
      call.body = body;
      Result<json> answer = CallEfs(*session_, ctx, "UpdateFileSystem", call);
      diags = answer.ok() ? WaitAvailable(ctx, id) : AwsErrorDiag("UpdateFileSystem", answer.error());
    }
    if (!diags.HasErrors() && !Get(planned, "lifecycle_policy").Equals(Get(prior, "lifecycle_policy"))) {
      diags = PutLifecycle(ctx, id, planned);
    }
    if (!diags.HasErrors()) diags = UpdateEfsTags(*session_, ctx, id, GetStringMap(prior, "tags_all"), WantedTags(planned));
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EfsPath("file-systems", id);
    Result<json> deleted = CallEfs(*session_, ctx, "DeleteFileSystem", call);
    if (!deleted.ok()) {
      if (deleted.error().code == kEfsFileSystemNotFound) return {};
      Diagnostics diags = AwsErrorDiag("DeleteFileSystem", deleted.error());
      if (deleted.error().code == "FileSystemInUse") {
        diags.Error("EFS file system " + id + " still has mount targets",
                    ctx.address + ": delete its aws_efs_mount_target resources first (they depend on it), then destroy again.");
      }
      return {diags};
    }
    return {WaitForEfsState(*session_, ctx, "EFS file system " + id, "deleted", [&] { return Describe(ctx, id); })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.rfind("fs-", 0) != 0) {
      return {Value(), Error("Invalid import id", "An aws_efs_file_system is imported by its file system id (\"fs-…\"), not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    Value out = planned;
    if (!Get(planned, "tags_all").Equals(Get(prior, "tags_all"))) out = With(out, "name", Value::Unknown());
    return out;
  }

 private:
  std::string CreationToken(const OperationContext& ctx, const Value& planned) const {
    std::string token = GetString(planned, "creation_token");
    return token.empty() ? UniqueName("terraform-", ctx) : token;
  }

  //! The file system `id`'s description; nullopt when EFS has none.
  Result<std::optional<json>> Describe(const OperationContext& ctx, const std::string& id) const {
    return DescribeEfsObject(*session_, ctx, "DescribeFileSystems", "file-systems", "FileSystemId", id, "FileSystems",
                             kEfsFileSystemNotFound);
  }

  Result<std::optional<json>> DescribeByToken(const OperationContext& ctx, const std::string& token) const {
    RestJsonRequest call;
    call.path = EfsPath("file-systems");
    call.query.push_back({"CreationToken", token});
    Result<json> got = CallEfs(*session_, ctx, "DescribeFileSystems", call);
    if (!got.ok()) return got.error();
    for (const json& fs : got->value("FileSystems", json::array())) {
      if (JsonString(fs, "CreationToken") == token && JsonString(fs, "LifeCycleState") != "deleted") return std::optional<json>(fs);
    }
    return std::optional<json>();
  }

  Diagnostics WaitAvailable(const OperationContext& ctx, const std::string& id) const {
    return WaitForEfsState(*session_, ctx, "EFS file system " + id, "available", [&] { return Describe(ctx, id); });
  }

  Diagnostics PutLifecycle(const OperationContext& ctx, const std::string& id, const Value& planned) const {
    RestJsonRequest call;
    call.method = "PUT";
    call.path = EfsPath("file-systems", id, "lifecycle-configuration");
    call.body = json{{"LifecyclePolicies", LifecyclePolicies(planned)}};
    Result<json> done = CallEfs(*session_, ctx, "PutLifecycleConfiguration", call);
    return done.ok() ? Diagnostics{} : AwsErrorDiag("PutLifecycleConfiguration", done.error());
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEfsFileSystem(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEfsFileSystem>(std::move(session));
}

}  // namespace strata::aws
