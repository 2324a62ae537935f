// aws_kms_key: a customer managed KMS key (EKS secrets encryption, encrypted EBS volumes in a
// launch template), over CreateKey / DescribeKey / GetKeyPolicy / GetKeyRotationStatus /
// ListResourceTags and the calls that change those, with Terraform's attribute names and
// defaults. The id is the key id. A key pending deletion is gone, as Terraform reads it;
// delete schedules the deletion after `deletion_window_in_days` (default 30).
//
// CreateKey takes no client token, so the create call tags the key with the engine's token
// and is never sent twice; recovery lists the region's keys and claims the one carrying this
// create's token (CreateRecovery::CreateTag).

#include <cmath>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/policy_json.h"
#include "providers/aws/services/kms/kms_api.h"
#include "providers/aws/services/kms/kms_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

json KmsTags(const TagMap& tags) {
  json out = json::array();
  for (const auto& [key, value] : tags) out.push_back({{"TagKey", key}, {"TagValue", value}});
  return out;
}

class AwsKmsKey final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_kms_key", {{"description", OptionalComputed("string")},
                                         {"key_usage", OptionalComputed("string", true)},
                                         {"customer_master_key_spec", OptionalComputed("string", true)},
                                         {"policy", OptionalComputed("string")},
                                         {"deletion_window_in_days", Optional("number")},
                                         {"is_enabled", OptionalComputed("bool")},
                                         {"enable_key_rotation", OptionalComputed("bool")},
                                         {"multi_region", OptionalComputed("bool", true)},
                                         {"tags", Optional("map(string)")},
                                         {"tags_all", Computed("map(string)")},
                                         {"arn", Computed("string")},
                                         {"key_id", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::CreateTag; }
  std::vector<std::string> RecoveryKey() const override { return {}; }

  Diagnostics Validate(const Value& config) const override {
    std::optional<double> days = GetNumber(config, "deletion_window_in_days");
    if (days && (*days < 7 || *days > 30)) {
      return Error("Invalid deletion window", "deletion_window_in_days must be from 7 to 30 days.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    json body = {{"KeyUsage", GetString(planned, "key_usage")},
                 {"KeySpec", GetString(planned, "customer_master_key_spec")},
                 {"MultiRegion", GetBool(planned, "multi_region", false)},
                 {"Tags", KmsTags(TagsOnCreate(ctx, planned))}};
    if (Get(planned, "description").IsString()) body["Description"] = GetString(planned, "description");
    if (Get(planned, "policy").IsString()) body["Policy"] = GetString(planned, "policy");
    // No client token: an attempt whose outcome is unknown is not sent again (recovery looks).
    Result<json> created = CallKms(*session_, ctx, "CreateKey", body, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("CreateKey", created.error());
    std::string id = (*created)["KeyMetadata"].value("KeyId", "");
    Diagnostics diags = Converge(ctx, id, Value(), planned);
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadKey(ctx, GetString(prior, "id"), prior, nullptr);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    return ReadAfterWrite(ctx, planned, id, Converge(ctx, id, prior, planned));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    double days = GetNumber(prior, "deletion_window_in_days").value_or(30);
    Result<json> done = CallKms(*session_, ctx, "ScheduleKeyDeletion",
                                {{"KeyId", GetString(prior, "id")}, {"PendingWindowInDays", static_cast<int>(days)}});
    if (done.ok() || done.error().code == kKmsNotFound) return {};
    // Already pending deletion: that is what delete asks for.
    if (done.error().code == "KMSInvalidStateException") return {};
    return {AwsErrorDiag("ScheduleKeyDeletion", done.error())};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  //! The region's key carrying this create's token tag (ListKeys, then each key's tags).
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    if (ctx.idempotency_token.empty()) return {Value(), true, {}};
    Result<json> keys = CallKms(*session_, ctx, "ListKeys", json::object());
    if (!keys.ok()) return {Value(), false, AwsErrorDiag("ListKeys", keys.error())};
    for (const json& key : (*keys).value("Keys", json::array())) {
      std::string token;
      ReadResult read = ReadKey(ctx, key.value("KeyId", ""), planned, &token);
      if (read.diags.HasErrors()) return read;
      if (!read.gone && token == ctx.idempotency_token) return read;
    }
    return {Value(), true, {}};
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    const std::pair<const char*, Value> defaults[] = {{"key_usage", Value::String("ENCRYPT_DECRYPT")},
                                                      {"customer_master_key_spec", Value::String("SYMMETRIC_DEFAULT")},
                                                      {"is_enabled", Value::Bool(true)},
                                                      {"enable_key_rotation", Value::Bool(false)},
                                                      {"multi_region", Value::Bool(false)}};
    for (const auto& [name, value] : defaults) {
      if (Get(out, name).IsNull()) out = With(out, name, value);
    }
    return out;
  }

 private:
  //! Brings the key `id` from `prior` (null: just created) to `planned`: description, policy,
  //! rotation, enabled state and tags.
  Diagnostics Converge(const OperationContext& ctx, const std::string& id, const Value& prior, const Value& planned) {
    auto changed = [&](const char* name) {
      Value want = Get(planned, name);
      return want.IsKnown() && !want.IsNull() && !want.Equals(Get(prior, name));
    };
    auto run = [&](const std::string& operation, const json& body) -> Diagnostics {
      Result<json> done = CallKms(*session_, ctx, operation, body);
      return done.ok() ? Diagnostics{} : AwsErrorDiag(operation, done.error());
    };
    Diagnostics diags;
    if (!prior.IsNull() && changed("description")) {
      diags = run("UpdateKeyDescription", {{"KeyId", id}, {"Description", GetString(planned, "description")}});
    }
    if (!diags.HasErrors() && !prior.IsNull() && changed("policy") &&
        !PolicyEquivalent(GetString(planned, "policy"), GetString(prior, "policy"))) {
      diags = run("PutKeyPolicy", {{"KeyId", id}, {"PolicyName", "default"}, {"Policy", GetString(planned, "policy")}});
    }
    if (!diags.HasErrors() && GetBool(planned, "enable_key_rotation", false) != GetBool(prior, "enable_key_rotation", false)) {
      diags = run(GetBool(planned, "enable_key_rotation", false) ? "EnableKeyRotation" : "DisableKeyRotation", {{"KeyId", id}});
    }
    if (!diags.HasErrors() && GetBool(planned, "is_enabled", true) != GetBool(prior, "is_enabled", true)) {
      diags = run(GetBool(planned, "is_enabled", true) ? "EnableKey" : "DisableKey", {{"KeyId", id}});
    }
    if (!diags.HasErrors() && !prior.IsNull()) {
      TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
      TagMap added = ChangedTags(from, to);
      std::vector<std::string> removed = RemovedTagKeys(from, to);
      if (!removed.empty()) diags = run("UntagResource", {{"KeyId", id}, {"TagKeys", removed}});
      if (!diags.HasErrors() && !added.empty()) diags = run("TagResource", {{"KeyId", id}, {"Tags", KmsTags(added)}});
    }
    return diags;
  }

  ReadResult ReadKey(const OperationContext& ctx, const std::string& id, const Value& prior, std::string* token) {
    Result<json> described = CallKms(*session_, ctx, "DescribeKey", {{"KeyId", id}});
    if (!described.ok()) {
      if (described.error().code == kKmsNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeKey", described.error())};
    }
    const json& meta = (*described)["KeyMetadata"];
    if (meta.value("KeyState", "") == "PendingDeletion") return {Value(), true, {}};
    Result<json> policy = CallKms(*session_, ctx, "GetKeyPolicy", {{"KeyId", id}, {"PolicyName", "default"}});
    if (!policy.ok()) return {Value(), false, AwsErrorDiag("GetKeyPolicy", policy.error())};
    Result<json> rotation = CallKms(*session_, ctx, "GetKeyRotationStatus", {{"KeyId", id}});
    if (!rotation.ok()) return {Value(), false, AwsErrorDiag("GetKeyRotationStatus", rotation.error())};
    Result<json> listed = CallKms(*session_, ctx, "ListResourceTags", {{"KeyId", id}});
    if (!listed.ok()) return {Value(), false, AwsErrorDiag("ListResourceTags", listed.error())};
    TagMap tags;
    for (const json& tag : (*listed).value("Tags", json::array())) {
      std::string key = tag.value("TagKey", "");
      if (key == kCreateTokenTag) {
        if (token) *token = tag.value("TagValue", "");
        continue;
      }
      tags[key] = tag.value("TagValue", "");
    }
    return {Value::Object({{"id", Value::String(meta.value("KeyId", id))},
                           {"key_id", Value::String(meta.value("KeyId", id))},
                           {"arn", Value::String(meta.value("Arn", ""))},
                           {"description", Value::String(meta.value("Description", ""))},
                           {"key_usage", Value::String(meta.value("KeyUsage", ""))},
                           {"customer_master_key_spec", Value::String(meta.value("KeySpec", meta.value("CustomerMasterKeySpec", "")))},
                           {"policy", JsonDocumentForState((*policy).value("Policy", ""), Get(prior, "policy"))},
                           {"deletion_window_in_days", Get(prior, "deletion_window_in_days")},
                           {"is_enabled", Value::Bool(meta.value("Enabled", false))},
                           {"enable_key_rotation", Value::Bool((*rotation).value("KeyRotationEnabled", false))},
                           {"multi_region", Value::Bool(meta.value("MultiRegion", false))},
                           {"tags", TagsForState(tags, session_->default_tags, Get(prior, "tags"))},
                           {"tags_all", TagsValue(tags)}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsKmsKey(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsKmsKey>(std::move(session));
}

}  // namespace strata::aws
