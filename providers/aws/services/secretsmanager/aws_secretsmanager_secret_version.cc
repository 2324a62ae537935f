// aws_secretsmanager_secret_version: one version of a secret's value, over PutSecretValue /
// GetSecretValue / UpdateSecretVersionStage, with Terraform's attributes. The id is
// "<secret ARN>|<version id>" (also the import id). A version's value never changes: a new
// secret_string or secret_binary is a new version (force-new); its staging labels
// (version_stages) move in place. Delete takes its labels off (all but AWSCURRENT, which AWS
// only moves to another version), as Terraform does; AWS then retires the version.
//
// PutSecretValue's ClientRequestToken is the version id: the create sends the engine's token
// as it, so sending the create again after an interruption makes nothing new (AWS ignores a
// repeat with the same value) and answers with the same version (CreateRecovery::ClientToken).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/secretsmanager/secretsmanager_api.h"
#include "providers/aws/services/secretsmanager/secretsmanager_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

constexpr const char* kSecretCurrentStage = "AWSCURRENT";

class AwsSecretsmanagerSecretVersion final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_secretsmanager_secret_version",
                                     {{"secret_id", Required("string", true)},
                                      {"secret_string", Optional("string", true)},
                                      {"secret_binary", Optional("string", true)},
                                      {"version_stages", OptionalComputed("set(string)")},
                                      {"arn", Computed("string")},
                                      {"version_id", Computed("string")}});
    s.attributes["secret_string"].sensitive = true;
    s.attributes["secret_binary"].sensitive = true;
    return s;
  }

  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }

  Diagnostics Validate(const Value& config) const override {
    if (Get(config, "secret_string").IsString() && Get(config, "secret_binary").IsString()) {
      return Error("Conflicting secret value", "Set either secret_string or secret_binary of a secret version, not both.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    json body = {{"SecretId", GetString(planned, "secret_id")}};
    if (!ctx.idempotency_token.empty()) body["ClientRequestToken"] = ctx.idempotency_token;
    if (Get(planned, "secret_string").IsString()) body["SecretString"] = GetString(planned, "secret_string");
    if (Get(planned, "secret_binary").IsString()) body["SecretBinary"] = GetString(planned, "secret_binary");
    if (Get(planned, "version_stages").IsSequence()) body["VersionStages"] = GetStringList(planned, "version_stages");
    Result<json> put = CallSecretsManager(*session_, ctx, "PutSecretValue", body);
    if (!put.ok()) return CreateFailed("PutSecretValue", put.error());
    std::string id = JsonString(*put, "ARN") + "|" + JsonString(*put, "VersionId");
    return ReadAfterWrite(ctx, planned, id, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    size_t bar = id.find('|');
    if (bar == std::string::npos) {
      return {Value(), false,
              Error("Invalid secret version id", ctx.address + ": \"" + id +
                                                     "\" is not \"<secret ARN>|<version id>\" (the import id of a secret version).")};
    }
    Result<json> got = CallSecretsManager(*session_, ctx, "GetSecretValue",
                                          {{"SecretId", id.substr(0, bar)}, {"VersionId", id.substr(bar + 1)}});
    if (!got.ok()) {
      if (SecretGone(got.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetSecretValue", got.error())};
    }
    const json& version = *got;
    std::vector<std::string> stages = SecretVersionStages(version);
    // A version without labels is retired: what a delete leaves.
    if (stages.empty()) return {Value(), true, {}};
    std::string arn = JsonString(version, "ARN");
    std::string version_id = JsonString(version, "VersionId");
    Value secret_id = Get(prior, "secret_id");
    auto sensitive = [&](const char* member) {
      return version.contains(member) && version[member].is_string()
                 ? Value::String(version[member].get<std::string>()).MarkSensitive() : Value();
    };
    ValueList labels;
    for (const std::string& stage : stages) labels.push_back(Value::String(stage));
    return {Value::Object({{"id", Value::String(arn + "|" + version_id)},
                           {"arn", Value::String(arn)},
                           {"secret_id", secret_id.IsString() ? secret_id : Value::String(arn)},
                           {"secret_string", sensitive("SecretString")},
                           {"secret_binary", sensitive("SecretBinary")},
                           {"version_stages", Value::Set(std::move(labels))},
                           {"version_id", Value::String(version_id)}}),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string secret = GetString(prior, "arn"), version = GetString(prior, "version_id");
    std::vector<std::string> from = GetStringList(prior, "version_stages"), to = GetStringList(planned, "version_stages");
    Diagnostics diags;
    // Labels off first: a move of AWSCURRENT then hands AWSPREVIOUS to the version it left.
    for (const std::string& stage : from) {
      // AWSCURRENT can only move to another version, never be taken off (as Terraform skips it).
      if (diags.HasErrors() || stage == kSecretCurrentStage || std::find(to.begin(), to.end(), stage) != to.end()) continue;
      diags = RemoveStage(ctx, secret, stage, version);
    }
    for (const std::string& stage : to) {
      if (diags.HasErrors() || std::find(from.begin(), from.end(), stage) != from.end()) continue;
      diags = MoveStage(ctx, secret, stage, version);
    }
    return ReadAfterWrite(ctx, planned, GetString(prior, "id"), diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    for (const std::string& stage : GetStringList(prior, "version_stages")) {
      if (stage == kSecretCurrentStage) continue;
      Diagnostics diags = RemoveStage(ctx, GetString(prior, "arn"), stage, GetString(prior, "version_id"));
      if (diags.HasErrors()) return {diags};
    }
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 private:
  //! Moves `stage` to `version`, off the version that holds it now (AWS requires naming it).
  Diagnostics MoveStage(const OperationContext& ctx, const std::string& secret, const std::string& stage,
                        const std::string& version) {
    json body = {{"SecretId", secret}, {"VersionStage", stage}, {"MoveToVersionId", version}};
    Result<json> holder = CallSecretsManager(*session_, ctx, "GetSecretValue", {{"SecretId", secret}, {"VersionStage", stage}});
    if (holder.ok()) {
      std::string held_by = JsonString(*holder, "VersionId");
      if (held_by == version) return {};
      body["RemoveFromVersionId"] = held_by;
    } else if (holder.error().code != kSecretsManagerNotFound) {
      return AwsErrorDiag("GetSecretValue", holder.error());
    }
    Result<json> done = CallSecretsManager(*session_, ctx, "UpdateSecretVersionStage", body);
    return done.ok() ? Diagnostics{} : AwsErrorDiag("UpdateSecretVersionStage", done.error());
  }

  Diagnostics RemoveStage(const OperationContext& ctx, const std::string& secret, const std::string& stage,
                          const std::string& version) {
    Result<json> done = CallSecretsManager(*session_, ctx, "UpdateSecretVersionStage",
                                           {{"SecretId", secret}, {"VersionStage", stage}, {"RemoveFromVersionId", version}});
    if (done.ok() || SecretGone(done.error())) return {};
    return AwsErrorDiag("UpdateSecretVersionStage", done.error());
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSecretsmanagerSecretVersion(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSecretsmanagerSecretVersion>(std::move(session));
}

}  // namespace strata::aws
