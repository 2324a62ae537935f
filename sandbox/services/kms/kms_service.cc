// AWS KMS (awsJson 1.1, target prefix TrentService) as the sandbox serves it: customer
// managed keys (CreateKey, DescribeKey, ListKeys, Enable/DisableKey, UpdateKeyDescription,
// Get/PutKeyPolicy, key rotation, ScheduleKeyDeletion / CancelKeyDeletion, tags) and aliases
// (CreateAlias, UpdateAlias, DeleteAlias, ListAliases). No cryptography is offered (nothing
// in Strata encrypts through KMS); keys are records with AWS's states and rules: a key
// pending deletion refuses use (KMSInvalidStateException), a deletion window is 7 to 30
// days, alias names start with "alias/" and never "alias/aws/".
//
// Storage: World documents under "kms.key" keyed "<region>/<key id>" and "kms.alias" keyed
// "<region>/<alias name>".

#include <algorithm>

#include "sandbox/json_service.h"

namespace strata::sandbox {
namespace kms {
namespace {

constexpr const char* kKeyKind = "kms.key";
constexpr const char* kAliasKind = "kms.alias";

ApiError KmsNotFound(const std::string& message) { return ApiError(400, "NotFoundException", message); }
ApiError KmsInvalidState(const std::string& message) { return ApiError(400, "KMSInvalidStateException", message); }
ApiError KmsValidation(const std::string& message) { return ApiError(400, "ValidationException", message); }

std::string KeyArn(const ServiceContext& ctx, const std::string& id) {
  return "arn:aws:kms:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":key/" + id;
}

std::string AliasArn(const ServiceContext& ctx, const std::string& alias) {
  return "arn:aws:kms:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":" + alias;
}

std::string DefaultKeyPolicy(const std::string& account) {
  return R"({"Version":"2012-10-17","Id":"key-default-1","Statement":[{"Sid":"Enable IAM User Permissions",)"
         R"("Effect":"Allow","Principal":{"AWS":"arn:aws:iam::)" +
         account + R"(:root"},"Action":"kms:*","Resource":"*"}]})";
}

void SaveKey(ServiceContext& ctx, const Json& key) {
  ctx.world.Put(kKeyKind, RegionOf(ctx) + "/" + key["KeyId"].get<std::string>(), key);
}

//! The key a KeyId names: its id, its ARN, an alias name or an alias ARN.
Json FindKey(ServiceContext& ctx, const std::string& given) {
  std::string id = given;
  if (id.rfind("arn:", 0) == 0) id = id.substr(id.rfind(':') + 1);  // "key/<id>" or "alias/<name>"
  if (id.rfind("key/", 0) == 0) id = id.substr(4);
  if (id.rfind("alias/", 0) == 0) {
    std::optional<Json> alias = ctx.world.Get(kAliasKind, RegionOf(ctx) + "/" + id);
    if (!alias) throw KmsNotFound("Alias " + AliasArn(ctx, id) + " is not found.");
    id = (*alias)["TargetKeyId"].get<std::string>();
  }
  std::optional<Json> key = ctx.world.Get(kKeyKind, RegionOf(ctx) + "/" + id);
  if (!key) throw KmsNotFound("Key '" + KeyArn(ctx, id) + "' does not exist");
  return *key;
}

//! A key that may be used or changed: not pending deletion.
Json UsableKey(ServiceContext& ctx, const std::string& given) {
  Json key = FindKey(ctx, given);
  if (key["KeyState"] == "PendingDeletion") {
    throw KmsInvalidState(key["Arn"].get<std::string>() + " is pending deletion.");
  }
  return key;
}

Json Metadata(const Json& key) {
  Json out = key;
  out.erase("Policy");
  out.erase("Tags");
  out.erase("RotationEnabled");
  return out;
}

Json TagsFrom(const Json& input, const char* member) {
  Json tags = Json::object();
  if (!input.contains(member) || !input[member].is_array()) return tags;
  for (const Json& tag : input[member]) {
    std::string key = tag.value("TagKey", "");
    if (key.empty() || key.size() > 128) throw ApiError(400, "TagException", "Tag keys must be 1 to 128 characters.");
    tags[key] = tag.value("TagValue", "");
  }
  return tags;
}

Json CreateKey(JsonCall& call) {
  std::string usage = call.input.value("KeyUsage", "ENCRYPT_DECRYPT");
  std::string spec = call.input.value("KeySpec", call.input.value("CustomerMasterKeySpec", "SYMMETRIC_DEFAULT"));
  static const std::vector<std::string> kUsages = {"ENCRYPT_DECRYPT", "SIGN_VERIFY", "GENERATE_VERIFY_MAC", "KEY_AGREEMENT"};
  if (std::find(kUsages.begin(), kUsages.end(), usage) == kUsages.end()) {
    throw KmsValidation("1 validation error detected: Value '" + usage + "' at 'keyUsage' failed to satisfy constraint");
  }
  std::string policy = OptionalJsonString(call.input, "Policy");
  if (!policy.empty()) {
    Json parsed = Json::parse(policy, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      throw ApiError(400, "MalformedPolicyDocumentException", "The policy document is not valid JSON.");
    }
  }
  std::string id = call.world().NewUuid();
  Json key = {{"AWSAccountId", call.account()},
              {"KeyId", id},
              {"Arn", KeyArn(call.ctx, id)},
              {"CreationDate", EpochSeconds(call.ctx.now)},
              {"Enabled", true},
              {"Description", OptionalJsonString(call.input, "Description")},
              {"KeyUsage", usage},
              {"KeyState", "Enabled"},
              {"Origin", "AWS_KMS"},
              {"KeyManager", "CUSTOMER"},
              {"KeySpec", spec},
              {"CustomerMasterKeySpec", spec},
              {"EncryptionAlgorithms", Json::array({"SYMMETRIC_DEFAULT"})},
              {"MultiRegion", call.input.value("MultiRegion", false)},
              {"Policy", policy.empty() ? DefaultKeyPolicy(call.account()) : policy},
              {"Tags", TagsFrom(call.input, "Tags")},
              {"RotationEnabled", false}};
  SaveKey(call.ctx, key);
  return Json{{"KeyMetadata", Metadata(key)}};
}

Json DescribeKey(JsonCall& call) {
  return Json{{"KeyMetadata", Metadata(FindKey(call.ctx, RequiredJsonString(call.input, "KeyId")))}};
}

Json ListKeys(JsonCall& call) {
  Json keys = Json::array();
  for (const auto& [id, key] : call.world().ListPrefix(kKeyKind, RegionOf(call.ctx) + "/")) {
    keys.push_back({{"KeyId", key["KeyId"]}, {"KeyArn", key["Arn"]}});
  }
  return Json{{"Keys", keys}, {"Truncated", false}};
}

Json SetEnabled(JsonCall& call, bool enabled) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  key["Enabled"] = enabled;
  key["KeyState"] = enabled ? "Enabled" : "Disabled";
  SaveKey(call.ctx, key);
  return Json::object();
}
Json EnableKey(JsonCall& call) { return SetEnabled(call, true); }
Json DisableKey(JsonCall& call) { return SetEnabled(call, false); }

Json UpdateKeyDescription(JsonCall& call) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  key["Description"] = RequiredJsonString(call.input, "Description");
  SaveKey(call.ctx, key);
  return Json::object();
}

Json GetKeyPolicy(JsonCall& call) {
  Json key = FindKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  return Json{{"Policy", key["Policy"]}, {"PolicyName", "default"}};
}

Json PutKeyPolicy(JsonCall& call) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  std::string policy = RequiredJsonString(call.input, "Policy");
  Json parsed = Json::parse(policy, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw ApiError(400, "MalformedPolicyDocumentException", "The policy document is not valid JSON.");
  }
  key["Policy"] = policy;
  SaveKey(call.ctx, key);
  return Json::object();
}

Json SetRotation(JsonCall& call, bool enabled) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  if (key["KeySpec"] != "SYMMETRIC_DEFAULT") throw ApiError(400, "UnsupportedOperationException", "Only symmetric keys rotate.");
  key["RotationEnabled"] = enabled;
  SaveKey(call.ctx, key);
  return Json::object();
}
Json EnableKeyRotation(JsonCall& call) { return SetRotation(call, true); }
Json DisableKeyRotation(JsonCall& call) { return SetRotation(call, false); }

Json GetKeyRotationStatus(JsonCall& call) {
  Json key = FindKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  return Json{{"KeyRotationEnabled", key.value("RotationEnabled", false)}, {"KeyId", key["KeyId"]}};
}

Json ScheduleKeyDeletion(JsonCall& call) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  int64_t days = call.input.value("PendingWindowInDays", 30);
  if (days < 7 || days > 30) {
    throw KmsValidation("1 validation error detected: Value '" + std::to_string(days) +
                        "' at 'pendingWindowInDays' failed to satisfy constraint: Member must have value between 7 and 30");
  }
  double deletion = EpochSeconds(call.ctx.now) + static_cast<double>(days) * 86400.0;
  key["KeyState"] = "PendingDeletion";
  key["Enabled"] = false;
  key["DeletionDate"] = deletion;
  key["PendingDeletionWindowInDays"] = days;
  SaveKey(call.ctx, key);
  return Json{{"KeyId", key["Arn"]}, {"DeletionDate", deletion}, {"KeyState", "PendingDeletion"}, {"PendingWindowInDays", days}};
}

Json CancelKeyDeletion(JsonCall& call) {
  Json key = FindKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  if (key["KeyState"] != "PendingDeletion") throw KmsInvalidState(key["Arn"].get<std::string>() + " is not pending deletion.");
  key["KeyState"] = "Disabled";
  key.erase("DeletionDate");
  key.erase("PendingDeletionWindowInDays");
  SaveKey(call.ctx, key);
  return Json{{"KeyId", key["KeyId"]}};
}

Json TagResource(JsonCall& call) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  Json added = TagsFrom(call.input, "Tags");
  for (const auto& [k, v] : added.items()) key["Tags"][k] = v;
  if (key["Tags"].size() > 50) throw ApiError(400, "TagException", "A key holds at most 50 tags.");
  SaveKey(call.ctx, key);
  return Json::object();
}

Json UntagResource(JsonCall& call) {
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  if (call.input.contains("TagKeys") && call.input["TagKeys"].is_array()) {
    for (const Json& k : call.input["TagKeys"]) {
      if (k.is_string()) key["Tags"].erase(k.get<std::string>());
    }
  }
  SaveKey(call.ctx, key);
  return Json::object();
}

Json ListResourceTags(JsonCall& call) {
  Json key = FindKey(call.ctx, RequiredJsonString(call.input, "KeyId"));
  Json tags = Json::array();
  for (const auto& [k, v] : key["Tags"].items()) tags.push_back({{"TagKey", k}, {"TagValue", v}});
  return Json{{"Tags", tags}, {"Truncated", false}};
}

void CheckAliasName(const std::string& name) {
  bool ok = name.rfind("alias/", 0) == 0 && name.size() > 6 && name.size() <= 256;
  for (char c : name.substr(std::min<size_t>(6, name.size()))) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-');
  }
  if (!ok) throw KmsValidation("Alias must start with the prefix \"alias/\" and use only letters, digits, /, _ and -.");
  if (name.rfind("alias/aws/", 0) == 0) throw ApiError(400, "NotAuthorizedException", "Cannot create an alias with the reserved prefix alias/aws/.");
}

Json CreateAlias(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "AliasName");
  CheckAliasName(name);
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "TargetKeyId"));
  std::string id = RegionOf(call.ctx) + "/" + name;
  if (call.world().Get(kAliasKind, id)) throw ApiError(400, "AlreadyExistsException", "An alias with the name " + AliasArn(call.ctx, name) + " already exists");
  double now = EpochSeconds(call.ctx.now);
  call.world().Put(kAliasKind, id,
                   {{"AliasName", name}, {"AliasArn", AliasArn(call.ctx, name)}, {"TargetKeyId", key["KeyId"]},
                    {"CreationDate", now}, {"LastUpdatedDate", now}});
  return Json::object();
}

Json UpdateAlias(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "AliasName");
  std::string id = RegionOf(call.ctx) + "/" + name;
  std::optional<Json> alias = call.world().Get(kAliasKind, id);
  if (!alias) throw KmsNotFound("Alias " + AliasArn(call.ctx, name) + " is not found.");
  Json key = UsableKey(call.ctx, RequiredJsonString(call.input, "TargetKeyId"));
  (*alias)["TargetKeyId"] = key["KeyId"];
  (*alias)["LastUpdatedDate"] = EpochSeconds(call.ctx.now);
  call.world().Put(kAliasKind, id, *alias);
  return Json::object();
}

Json DeleteAlias(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "AliasName");
  if (!call.world().Erase(kAliasKind, RegionOf(call.ctx) + "/" + name)) {
    throw KmsNotFound("Alias " + AliasArn(call.ctx, name) + " is not found.");
  }
  return Json::object();
}

Json ListAliases(JsonCall& call) {
  std::string only_key = OptionalJsonString(call.input, "KeyId");
  if (!only_key.empty()) only_key = FindKey(call.ctx, only_key)["KeyId"].get<std::string>();
  Json aliases = Json::array();
  for (const auto& [id, alias] : call.world().ListPrefix(kAliasKind, RegionOf(call.ctx) + "/")) {
    if (only_key.empty() || alias["TargetKeyId"] == only_key) aliases.push_back(alias);
  }
  return Json{{"Aliases", aliases}, {"Truncated", false}};
}

}  // namespace
}  // namespace kms

std::unique_ptr<Service> NewKmsService() {
  JsonActionTable actions = {{"CreateKey", kms::CreateKey},
                             {"DescribeKey", kms::DescribeKey},
                             {"ListKeys", kms::ListKeys},
                             {"EnableKey", kms::EnableKey},
                             {"DisableKey", kms::DisableKey},
                             {"UpdateKeyDescription", kms::UpdateKeyDescription},
                             {"GetKeyPolicy", kms::GetKeyPolicy},
                             {"PutKeyPolicy", kms::PutKeyPolicy},
                             {"EnableKeyRotation", kms::EnableKeyRotation},
                             {"DisableKeyRotation", kms::DisableKeyRotation},
                             {"GetKeyRotationStatus", kms::GetKeyRotationStatus},
                             {"ScheduleKeyDeletion", kms::ScheduleKeyDeletion},
                             {"CancelKeyDeletion", kms::CancelKeyDeletion},
                             {"TagResource", kms::TagResource},
                             {"UntagResource", kms::UntagResource},
                             {"ListResourceTags", kms::ListResourceTags},
                             {"CreateAlias", kms::CreateAlias},
                             {"UpdateAlias", kms::UpdateAlias},
                             {"DeleteAlias", kms::DeleteAlias},
                             {"ListAliases", kms::ListAliases}};
  return NewJsonService("kms", {"TrentService", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
