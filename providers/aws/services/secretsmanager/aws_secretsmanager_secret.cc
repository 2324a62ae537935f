// aws_secretsmanager_secret: a Secrets Manager secret's metadata (its value is
// aws_secretsmanager_secret_version's), over CreateSecret / DescribeSecret / UpdateSecret /
// TagResource / UntagResource / DeleteSecret, with Terraform's attributes. The id is the
// ARN (import by ARN). A secret scheduled for deletion reads as gone, as Terraform reads it;
// delete schedules the deletion after `recovery_window_in_days` (default 30), or deletes at
// once with ForceDeleteWithoutRecovery when it is 0.
//
// CreateSecret takes a ClientRequestToken, and the create sends the engine's token as it, but
// AWS records that token only as the id of the first version, which a secret created without
// a value (as Terraform creates it) never has. So the create call also tags the secret with
// the token, is never sent twice, and recovery reads the secret of the planned name (a name
// from `name_prefix` is derived from the token) and claims it when it carries this create's
// token (CreateRecovery::CreateTag).

#include "engine/base/random.h"
#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/secretsmanager/secretsmanager_api.h"
#include "providers/aws/services/secretsmanager/secretsmanager_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsSecretsmanagerSecret final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_secretsmanager_secret", {{"name", OptionalComputed("string", true)},
                                                       {"name_prefix", Optional("string", true)},
                                                       {"description", Optional("string")},
                                                       {"kms_key_id", Optional("string")},
                                                       {"recovery_window_in_days", OptionalComputed("number")},
                                                       {"tags", Optional("map(string)")},
                                                       {"tags_all", Computed("map(string)")},
                                                       {"arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::CreateTag; }
  std::vector<std::string> RecoveryKey() const override { return {"name", "name_prefix"}; }

  Diagnostics Validate(const Value& config) const override {
    std::optional<double> days = GetNumber(config, "recovery_window_in_days");
    if (days && *days != 0 && (*days < 7 || *days > 30)) {
      return Error("Invalid recovery window",
                   "recovery_window_in_days must be 0 (delete at once, without recovery) or from 7 to 30 days.");
    }
    if (Get(config, "name").IsString() && Get(config, "name_prefix").IsString()) {
      return Error("Conflicting name", "Set either name or name_prefix of a secret, not both.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = SecretName(ctx, planned);
    json body = {{"Name", name}, {"Tags", SecretTagList(TagsOnCreate(ctx, planned))}};
    if (!ctx.idempotency_token.empty()) body["ClientRequestToken"] = ctx.idempotency_token;
    if (Get(planned, "description").IsString()) body["Description"] = GetString(planned, "description");
    if (Get(planned, "kms_key_id").IsString()) body["KmsKeyId"] = GetString(planned, "kms_key_id");
    // The token is recorded only with a value: an attempt whose outcome is unknown is not sent
    // again (recovery looks for the token tag).
    Result<json> created = CallSecretsManager(*session_, ctx, "CreateSecret", body, CreateCallOptionsFor(ctx));
    if (!created.ok()) {
      ApplyResult failed = CreateFailed("CreateSecret", created.error());
      if (created.error().code == "ResourceExistsException") {
        failed.diags.Error("Secret \"" + name + "\" already exists",
                           ctx.address + ": a secret of that name exists (or is scheduled for deletion: restore it "
                           "with `aws secretsmanager restore-secret`). Import it with `strata import " + ctx.address +
                           " <its ARN>`, or choose another name.");
      }
      return failed;
    }
    return ReadAfterWrite(ctx, planned, JsonString(*created, "ARN"), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadSecret(ctx, GetString(prior, "id", GetString(prior, "arn")), prior, nullptr);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    auto changed = [&](const char* name) { return !Get(planned, name).Equals(Get(prior, name)); };
    auto run = [&](const std::string& operation, const json& body) -> Diagnostics {
      Result<json> done = CallSecretsManager(*session_, ctx, operation, body);
      return done.ok() ? Diagnostics{} : AwsErrorDiag(operation, done.error());
    };
    Diagnostics diags;
    if (changed("description") || changed("kms_key_id")) {
      // The SDKs always fill UpdateSecret's idempotency token in; so do we (some emulators
      // mistake a missing one for a repeat).
      json body = {{"SecretId", id},
                   {"Description", GetString(planned, "description")},
                   {"ClientRequestToken", base::SystemRandom().Uuid()}};
      if (Get(planned, "kms_key_id").IsString()) body["KmsKeyId"] = GetString(planned, "kms_key_id");
      diags = run("UpdateSecret", body);
    }
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    TagMap added = ChangedTags(from, to);
    std::vector<std::string> removed = RemovedTagKeys(from, to);
    if (!diags.HasErrors() && !removed.empty()) diags = run("UntagResource", {{"SecretId", id}, {"TagKeys", removed}});
    if (!diags.HasErrors() && !added.empty()) diags = run("TagResource", {{"SecretId", id}, {"Tags", SecretTagList(added)}});
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    double days = GetNumber(prior, "recovery_window_in_days").value_or(30);
    json body = {{"SecretId", GetString(prior, "id")}};
    if (days == 0) {
      body["ForceDeleteWithoutRecovery"] = true;
    } else {
      body["RecoveryWindowInDays"] = static_cast<int>(days);
    }
    Result<json> done = CallSecretsManager(*session_, ctx, "DeleteSecret", body);
    // Already gone, or already scheduled for deletion: that is what delete asks for.
    if (done.ok() || SecretGone(done.error())) return {};
    return {AwsErrorDiag("DeleteSecret", done.error())};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  //! The secret of the planned name, ours when it carries this create's token tag.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = SecretName(ctx, planned), token;
    ReadResult found = ReadSecret(ctx, name, planned, &token);
    return ClaimIfOurs(ctx, found, token, "Secrets Manager secret \"" + name + "\"",
                       GetString(found.state, "arn", "<its ARN>"));
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "recovery_window_in_days").IsNull()) out = With(out, "recovery_window_in_days", Value::Number(30));
    return out;
  }

 private:
  static std::string SecretName(const OperationContext& ctx, const Value& planned) {
    return NameOrUnique(ctx, planned, "terraform-");
  }

  //! DescribeSecret of `id` (a name or an ARN): gone when missing or scheduled for deletion;
  //! the create-token tag's value goes to `token`.
  ReadResult ReadSecret(const OperationContext& ctx, const std::string& id, const Value& prior, std::string* token) {
    Result<json> described = CallSecretsManager(*session_, ctx, "DescribeSecret", {{"SecretId", id}});
    if (!described.ok()) {
      if (SecretGone(described.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeSecret", described.error())};
    }
    const json& secret = *described;
    if (secret.contains("DeletedDate") && !secret["DeletedDate"].is_null()) return {Value(), true, {}};
    TagMap tags;
    const json listed = secret.contains("Tags") && secret["Tags"].is_array() ? secret["Tags"] : json::array();
    for (const json& tag : listed) {
      std::string key = JsonString(tag, "Key");
      if (key == kCreateTokenTag) {
        if (token) *token = JsonString(tag, "Value");
        continue;
      }
      tags[key] = JsonString(tag, "Value");
    }
    std::string description = JsonString(secret, "Description");
    std::string kms = JsonString(secret, "KmsKeyId");
    std::string arn = JsonString(secret, "ARN");
    Value days = Get(prior, "recovery_window_in_days");
    return {Value::Object({{"id", Value::String(arn)},
                           {"arn", Value::String(arn)},
                           {"name", Value::String(JsonString(secret, "Name"))},
                           {"name_prefix", Get(prior, "name_prefix")},
                           {"description", description.empty() && Get(prior, "description").IsNull()
                                               ? Value() : Value::String(description)},
                           {"kms_key_id", kms.empty() ? Value() : Value::String(kms)},
                           {"recovery_window_in_days", days.IsNull() ? Value::Number(30) : days},
                           {"tags", TagsForState(tags, session_->default_tags, Get(prior, "tags"))},
                           {"tags_all", TagsValue(tags)}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSecretsmanagerSecret(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSecretsmanagerSecret>(std::move(session));
}

}  // namespace strata::aws
