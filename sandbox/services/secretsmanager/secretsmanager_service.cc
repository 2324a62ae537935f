// AWS Secrets Manager (awsJson 1.1, target prefix "secretsmanager") as the sandbox serves it:
// secrets (CreateSecret, DescribeSecret, UpdateSecret, ListSecrets, DeleteSecret with a
// recovery window or ForceDeleteWithoutRecovery, RestoreSecret, tags) and their versions
// (GetSecretValue, PutSecretValue, UpdateSecretVersionStage, ListSecretVersionIds), with AWS's
// rules: a ClientRequestToken names the version it makes and a repeat with the same value is
// ignored (a different value is refused); AWSCURRENT moving to a new version leaves
// AWSPREVIOUS on the old one; a secret scheduled for deletion refuses use
// (InvalidRequestException) until restored, and is gone once its window has passed.
//
// Storage: World documents under "secretsmanager.secret" keyed "<region>/<name>", each
// holding its versions by id.

#include <algorithm>

#include "sandbox/json_service.h"

namespace strata::sandbox {
namespace secretsmanager {
namespace {

constexpr const char* kSecretKind = "secretsmanager.secret";
constexpr const char* kCurrent = "AWSCURRENT";
constexpr const char* kPrevious = "AWSPREVIOUS";

ApiError SecretNotFound() {
  return ApiError(400, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.");
}
ApiError SecretInvalidParameter(const std::string& message) {
  return ApiError(400, "InvalidParameterException", message);
}
ApiError MarkedForDeletion() {
  return ApiError(400, "InvalidRequestException",
                  "You can't perform this operation on the secret because it was marked for deletion.");
}

std::string SecretKey(const ServiceContext& ctx, const std::string& name) { return RegionOf(ctx) + "/" + name; }

void SaveSecret(ServiceContext& ctx, const Json& secret) {
  ctx.world.Put(kSecretKind, SecretKey(ctx, secret["Name"].get<std::string>()), secret);
}

//! The secret a SecretId names (its name or its ARN), or none. A secret whose recovery
//! window has passed is erased here: AWS deletes it then.
std::optional<Json> LookUpSecret(ServiceContext& ctx, const std::string& id) {
  std::optional<Json> secret;
  if (id.rfind("arn:", 0) == 0) {
    for (auto& [key, s] : ctx.world.ListPrefix(kSecretKind, RegionOf(ctx) + "/")) {
      if (s["ARN"] == id) secret = s;
    }
  } else {
    secret = ctx.world.Get(kSecretKind, SecretKey(ctx, id));
  }
  if (secret && secret->contains("DeletionDate") && (*secret)["DeletionDate"].get<double>() <= EpochSeconds(ctx.now)) {
    ctx.world.Erase(kSecretKind, SecretKey(ctx, (*secret)["Name"].get<std::string>()));
    return std::nullopt;
  }
  return secret;
}

Json FindSecret(ServiceContext& ctx, const Json& input) {
  std::optional<Json> secret = LookUpSecret(ctx, RequiredJsonString(input, "SecretId"));
  if (!secret) throw SecretNotFound();
  return *secret;
}

//! A secret that may be used or changed: not scheduled for deletion.
Json UsableSecret(ServiceContext& ctx, const Json& input) {
  Json secret = FindSecret(ctx, input);
  if (secret.contains("DeletedDate")) throw MarkedForDeletion();
  return secret;
}

void CheckSecretName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 512;
  for (char c : name) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || std::string("/_+=.@-").find(c) != std::string::npos);
  }
  if (!ok) throw SecretInvalidParameter("Invalid name. Must be a valid name containing alphanumeric characters, or any of the following: -/_+=.@!");
}

Json TagListFrom(const Json& input) {
  Json tags = Json::array();
  if (!input.contains("Tags") || !input["Tags"].is_array()) return tags;
  for (const Json& tag : input["Tags"]) {
    std::string key = tag.value("Key", "");
    if (key.empty() || key.size() > 128) throw SecretInvalidParameter("Tag keys must be 1 to 128 characters.");
    tags.push_back({{"Key", key}, {"Value", tag.value("Value", "")}});
  }
  return tags;
}

//! Sets tags `added` (a Key/Value list) on `secret`, replacing values of existing keys.
void MergeSecretTags(Json& secret, const Json& added) {
  for (const Json& tag : added) {
    auto same = std::find_if(secret["Tags"].begin(), secret["Tags"].end(),
                             [&](const Json& t) { return t["Key"] == tag["Key"]; });
    if (same != secret["Tags"].end()) {
      (*same)["Value"] = tag["Value"];
    } else {
      secret["Tags"].push_back(tag);
    }
  }
  if (secret["Tags"].size() > 50) throw ApiError(400, "ValidationException", "A secret holds at most 50 tags.");
}

//! The value a write carries: {"SecretString"} or {"SecretBinary"}, or null when neither.
Json SecretValueOf(const Json& input) {
  bool has_string = input.contains("SecretString"), has_binary = input.contains("SecretBinary");
  if (has_string && has_binary) {
    throw SecretInvalidParameter("You can't specify both a binary secret value and a string secret value in the same secret.");
  }
  if (has_string) return Json{{"SecretString", RequiredJsonString(input, "SecretString")}};
  if (has_binary) return Json{{"SecretBinary", RequiredJsonString(input, "SecretBinary")}};
  return nullptr;
}

//! Moves the staging label `stage` to version `to` (removing it from the others); moving
//! AWSCURRENT hands AWSPREVIOUS to the version that held it.
void MoveStage(Json& secret, const std::string& stage, const std::string& to) {
  std::string had;
  for (auto& [id, version] : secret["Versions"].items()) {
    Json& stages = version["Stages"];
    auto at = std::find(stages.begin(), stages.end(), stage);
    if (at == stages.end()) continue;
    had = id;
    stages.erase(at);
  }
  secret["Versions"][to]["Stages"].push_back(stage);
  if (stage == kCurrent && !had.empty() && had != to) MoveStage(secret, kPrevious, had);
}

//! Adds version `id` holding `value` with `stages` (AWSCURRENT when none are given). A
//! version of that id already holding the same value is left as it is (an idempotent
//! retry); with another value the write is refused.
void AddVersion(ServiceContext& ctx, Json& secret, const std::string& id, const Json& value, const Json& stages) {
  if (id.size() < 32 || id.size() > 64) {
    throw SecretInvalidParameter("ClientRequestToken must be 32 to 64 characters long.");
  }
  if (secret["Versions"].contains(id)) {
    Json existing = secret["Versions"][id];
    existing.erase("Stages");
    existing.erase("CreatedDate");
    if (existing == value) return;
    throw ApiError(400, "ResourceExistsException", "A resource with the ID you requested already exists.");
  }
  Json version = value;
  version["Stages"] = Json::array();
  version["CreatedDate"] = EpochSeconds(ctx.now);
  secret["Versions"][id] = version;
  Json wanted = stages.is_array() && !stages.empty() ? stages : Json::array({kCurrent});
  for (const Json& stage : wanted) MoveStage(secret, stage.get<std::string>(), id);
  secret["LastChangedDate"] = EpochSeconds(ctx.now);
}

std::string VersionIdOf(ServiceContext& ctx, const Json& input) {
  std::string token = OptionalJsonString(input, "ClientRequestToken");
  return token.empty() ? ctx.world.NewUuid() : token;
}

Json VersionIdsToStages(const Json& secret) {
  Json out = Json::object();
  for (const auto& [id, version] : secret["Versions"].items()) {
    if (!version["Stages"].empty()) out[id] = version["Stages"];
  }
  return out;
}

Json Description(const Json& secret) {
  Json out = {{"ARN", secret["ARN"]},
              {"Name", secret["Name"]},
              {"Description", secret["Description"]},
              {"CreatedDate", secret["CreatedDate"]},
              {"LastChangedDate", secret["LastChangedDate"]},
              {"Tags", secret["Tags"]},
              {"VersionIdsToStages", VersionIdsToStages(secret)}};
  if (!secret["KmsKeyId"].get<std::string>().empty()) out["KmsKeyId"] = secret["KmsKeyId"];
  if (secret.contains("DeletedDate")) out["DeletedDate"] = secret["DeletedDate"];
  return out;
}

Json CreateSecret(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "Name");
  CheckSecretName(name);
  Json value = SecretValueOf(call.input);
  std::string token = OptionalJsonString(call.input, "ClientRequestToken");
  if (std::optional<Json> existing = LookUpSecret(call.ctx, name)) {
    if (existing->contains("DeletedDate")) {
      throw ApiError(400, "InvalidRequestException",
                     "You can't create this secret because a secret with this name is already scheduled for deletion.");
    }
    // The same request again (its token names a version of the secret): answered as the first.
    if (!token.empty() && (*existing)["Versions"].contains(token)) {
      return Json{{"ARN", (*existing)["ARN"]}, {"Name", name}, {"VersionId", token}};
    }
    throw ApiError(400, "ResourceExistsException", "The operation failed because the secret " + name + " already exists.");
  }
  double now = EpochSeconds(call.ctx.now);
  std::string arn = "arn:aws:secretsmanager:" + RegionOf(call.ctx) + ":" + call.account() + ":secret:" + name + "-" +
                    call.world().RandomString(6, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
  Json secret = {{"ARN", arn},
                 {"Name", name},
                 {"Description", OptionalJsonString(call.input, "Description")},
                 {"KmsKeyId", OptionalJsonString(call.input, "KmsKeyId")},
                 {"CreatedDate", now},
                 {"LastChangedDate", now},
                 {"Tags", TagListFrom(call.input)},
                 {"Versions", Json::object()}};
  Json out = {{"ARN", arn}, {"Name", name}};
  if (!value.is_null()) {
    std::string id = token.empty() ? call.world().NewUuid() : token;
    AddVersion(call.ctx, secret, id, value, nullptr);
    out["VersionId"] = id;
  }
  SaveSecret(call.ctx, secret);
  return out;
}

Json DescribeSecret(JsonCall& call) { return Description(FindSecret(call.ctx, call.input)); }

Json GetSecretValue(JsonCall& call) {
  Json secret = UsableSecret(call.ctx, call.input);
  std::string id = OptionalJsonString(call.input, "VersionId");
  std::string stage = OptionalJsonString(call.input, "VersionStage");
  if (id.empty() && stage.empty()) stage = kCurrent;
  for (const auto& [version_id, version] : secret["Versions"].items()) {
    const Json& stages = version["Stages"];
    bool staged = stage.empty() || std::find(stages.begin(), stages.end(), stage) != stages.end();
    if ((!id.empty() && version_id != id) || !staged) continue;
    Json out = {{"ARN", secret["ARN"]},
                {"Name", secret["Name"]},
                {"VersionId", version_id},
                {"VersionStages", stages},
                {"CreatedDate", version["CreatedDate"]}};
    for (const char* member : {"SecretString", "SecretBinary"}) {
      if (version.contains(member)) out[member] = version[member];
    }
    return out;
  }
  throw ApiError(400, "ResourceNotFoundException",
                 "Secrets Manager can't find the specified secret value for " +
                     (id.empty() ? "staging label: " + stage : "VersionId: " + id));
}

Json PutSecretValue(JsonCall& call) {
  Json secret = UsableSecret(call.ctx, call.input);
  Json value = SecretValueOf(call.input);
  if (value.is_null()) throw SecretInvalidParameter("You must provide either SecretString or SecretBinary.");
  std::string id = VersionIdOf(call.ctx, call.input);
  AddVersion(call.ctx, secret, id, value, call.input.value("VersionStages", Json()));
  SaveSecret(call.ctx, secret);
  return Json{{"ARN", secret["ARN"]}, {"Name", secret["Name"]}, {"VersionId", id},
              {"VersionStages", secret["Versions"][id]["Stages"]}};
}

Json UpdateSecret(JsonCall& call) {
  Json secret = UsableSecret(call.ctx, call.input);
  if (call.input.contains("Description")) secret["Description"] = RequiredJsonString(call.input, "Description");
  if (call.input.contains("KmsKeyId")) secret["KmsKeyId"] = RequiredJsonString(call.input, "KmsKeyId");
  secret["LastChangedDate"] = EpochSeconds(call.ctx.now);
  Json out = {{"ARN", secret["ARN"]}, {"Name", secret["Name"]}};
  Json value = SecretValueOf(call.input);
  if (!value.is_null()) {
    std::string id = VersionIdOf(call.ctx, call.input);
    AddVersion(call.ctx, secret, id, value, nullptr);
    out["VersionId"] = id;
  }
  SaveSecret(call.ctx, secret);
  return out;
}

Json UpdateSecretVersionStage(JsonCall& call) {
  Json secret = UsableSecret(call.ctx, call.input);
  std::string stage = RequiredJsonString(call.input, "VersionStage");
  std::string from = OptionalJsonString(call.input, "RemoveFromVersionId");
  std::string to = OptionalJsonString(call.input, "MoveToVersionId");
  for (const std::string& id : {from, to}) {
    if (!id.empty() && !secret["Versions"].contains(id)) throw SecretNotFound();
  }
  // Moving AWSCURRENT takes it off where it was and hands that version AWSPREVIOUS.
  if (!from.empty() && !(stage == kCurrent && !to.empty())) {
    Json& stages = secret["Versions"][from]["Stages"];
    auto at = std::find(stages.begin(), stages.end(), stage);
    if (at == stages.end()) {
      throw SecretInvalidParameter("The staging label " + stage + " is not attached to version " + from + ".");
    }
    if (to.empty() && stage == kCurrent) {
      throw SecretInvalidParameter("You can only move staging label AWSCURRENT to a different secret version. It can't be completely removed.");
    }
    stages.erase(at);
  }
  if (!to.empty()) MoveStage(secret, stage, to);
  secret["LastChangedDate"] = EpochSeconds(call.ctx.now);
  SaveSecret(call.ctx, secret);
  return Json{{"ARN", secret["ARN"]}, {"Name", secret["Name"]}};
}

Json DeleteSecret(JsonCall& call) {
  Json secret = FindSecret(call.ctx, call.input);
  bool force = call.input.value("ForceDeleteWithoutRecovery", false);
  if (force && call.input.contains("RecoveryWindowInDays")) {
    throw SecretInvalidParameter("You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.");
  }
  double now = EpochSeconds(call.ctx.now);
  Json out = {{"ARN", secret["ARN"]}, {"Name", secret["Name"]}};
  if (force) {
    call.world().Erase(kSecretKind, SecretKey(call.ctx, secret["Name"].get<std::string>()));
    out["DeletionDate"] = now;
    return out;
  }
  if (secret.contains("DeletedDate")) throw MarkedForDeletion();
  int64_t days = call.input.value("RecoveryWindowInDays", 30);
  if (days < 7 || days > 30) {
    throw SecretInvalidParameter("The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).");
  }
  secret["DeletedDate"] = now;
  secret["DeletionDate"] = now + static_cast<double>(days) * 86400.0;
  SaveSecret(call.ctx, secret);
  out["DeletionDate"] = secret["DeletionDate"];
  return out;
}

Json RestoreSecret(JsonCall& call) {
  Json secret = FindSecret(call.ctx, call.input);
  secret.erase("DeletedDate");
  secret.erase("DeletionDate");
  SaveSecret(call.ctx, secret);
  return Json{{"ARN", secret["ARN"]}, {"Name", secret["Name"]}};
}

Json TagResource(JsonCall& call) {
  Json secret = UsableSecret(call.ctx, call.input);
  MergeSecretTags(secret, TagListFrom(call.input));
  SaveSecret(call.ctx, secret);
  return Json::object();
}

Json UntagResource(JsonCall& call) {
  Json secret = UsableSecret(call.ctx, call.input);
  Json keys = call.input.value("TagKeys", Json::array());
  Json kept = Json::array();
  for (const Json& tag : secret["Tags"]) {
    if (std::find(keys.begin(), keys.end(), tag["Key"]) == keys.end()) kept.push_back(tag);
  }
  secret["Tags"] = kept;
  SaveSecret(call.ctx, secret);
  return Json::object();
}

Json ListSecrets(JsonCall& call) {
  bool include_deleted = call.input.value("IncludePlannedDeletion", false);
  Json list = Json::array();
  for (const auto& [key, secret] : call.world().ListPrefix(kSecretKind, RegionOf(call.ctx) + "/")) {
    if (!LookUpSecret(call.ctx, secret["Name"].get<std::string>())) continue;  // its window has passed
    if (secret.contains("DeletedDate") && !include_deleted) continue;
    Json entry = Description(secret);
    entry["SecretVersionsToStages"] = entry["VersionIdsToStages"];
    entry.erase("VersionIdsToStages");
    list.push_back(entry);
  }
  return Json{{"SecretList", list}};
}

Json ListSecretVersionIds(JsonCall& call) {
  Json secret = FindSecret(call.ctx, call.input);
  bool include_deprecated = call.input.value("IncludeDeprecated", false);
  Json versions = Json::array();
  for (const auto& [id, version] : secret["Versions"].items()) {
    if (version["Stages"].empty() && !include_deprecated) continue;
    versions.push_back({{"VersionId", id}, {"VersionStages", version["Stages"]}, {"CreatedDate", version["CreatedDate"]}});
  }
  return Json{{"ARN", secret["ARN"]}, {"Name", secret["Name"]}, {"Versions", versions}};
}

}  // namespace
}  // namespace secretsmanager

std::unique_ptr<Service> NewSecretsManagerService() {
  JsonActionTable actions = {{"CreateSecret", secretsmanager::CreateSecret},
                             {"DescribeSecret", secretsmanager::DescribeSecret},
                             {"GetSecretValue", secretsmanager::GetSecretValue},
                             {"PutSecretValue", secretsmanager::PutSecretValue},
                             {"UpdateSecret", secretsmanager::UpdateSecret},
                             {"UpdateSecretVersionStage", secretsmanager::UpdateSecretVersionStage},
                             {"DeleteSecret", secretsmanager::DeleteSecret},
                             {"RestoreSecret", secretsmanager::RestoreSecret},
                             {"TagResource", secretsmanager::TagResource},
                             {"UntagResource", secretsmanager::UntagResource},
                             {"ListSecrets", secretsmanager::ListSecrets},
                             {"ListSecretVersionIds", secretsmanager::ListSecretVersionIds}};
  return NewJsonService("secretsmanager", {"secretsmanager", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
