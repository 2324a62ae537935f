// aws_kms_alias: a name for a KMS key ("alias/eks-secrets"), over CreateAlias / ListAliases /
// UpdateAlias / DeleteAlias, with Terraform's attributes. The id is the alias name; a new
// name (or prefix) is a new alias, a new target key is UpdateAlias in place. The name is the
// natural key: an alias of that name pointing at the planned key is what the create made.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/kms/kms_api.h"
#include "providers/aws/services/kms/kms_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsKmsAlias final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_kms_alias", {{"name", OptionalComputed("string", true)},
                                           {"name_prefix", Optional("string", true)},
                                           {"target_key_id", Required("string")},
                                           {"arn", Computed("string")},
                                           {"target_key_arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"name", "name_prefix"}; }

  Diagnostics Validate(const Value& config) const override {
    std::string name = GetString(config, "name", GetString(config, "name_prefix"));
    if (Get(config, "name").IsKnown() && Get(config, "name_prefix").IsKnown() && !name.empty() &&
        name.rfind("alias/", 0) != 0) {
      return Error("Invalid alias name", "A KMS alias name starts with \"alias/\": \"" + name + "\".");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = AliasName(ctx, planned);
    Result<json> created =
        CallKms(*session_, ctx, "CreateAlias", {{"AliasName", name}, {"TargetKeyId", GetString(planned, "target_key_id")}});
    if (!created.ok()) return CreateFailed("CreateAlias", created.error());
    return ReadAfterWrite(ctx, planned, name, {});
  }

  //! The alias of the planned name; ours only when it points at the planned key.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = AliasName(ctx, planned);
    ReadResult found = ReadAlias(ctx, name, planned);
    if (found.gone || found.diags.HasErrors()) return found;
    std::string want = GetString(planned, "target_key_id");
    if (want.empty() || want == GetString(found.state, "target_key_id") || want == GetString(found.state, "target_key_arn")) {
      return found;
    }
    return NotCreatedByThisApply(ctx, "KMS alias \"" + name + "\"", "it points at another key", name);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadAlias(ctx, GetString(prior, "id", GetString(prior, "name")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id");
    Result<json> done =
        CallKms(*session_, ctx, "UpdateAlias", {{"AliasName", name}, {"TargetKeyId", GetString(planned, "target_key_id")}});
    return ReadAfterWrite(ctx, planned, name, done.ok() ? Diagnostics{} : AwsErrorDiag("UpdateAlias", done.error()));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    Result<json> done = CallKms(*session_, ctx, "DeleteAlias", {{"AliasName", GetString(prior, "id")}});
    if (!done.ok() && done.error().code != kKmsNotFound) return {AwsErrorDiag("DeleteAlias", done.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 private:
  static std::string AliasName(const OperationContext& ctx, const Value& planned) {
    return NameOrUnique(ctx, planned, "alias/");
  }

  ReadResult ReadAlias(const OperationContext& ctx, const std::string& name, const Value& prior) {
    Result<json> listed = CallKms(*session_, ctx, "ListAliases", json::object());
    if (!listed.ok()) return {Value(), false, AwsErrorDiag("ListAliases", listed.error())};
    for (const json& alias : (*listed).value("Aliases", json::array())) {
      if (alias.value("AliasName", "") != name) continue;
      std::string key_id = alias.value("TargetKeyId", "");
      std::string alias_arn = alias.value("AliasArn", "");
      std::string key_arn = alias_arn.substr(0, alias_arn.find(":alias/")) + ":key/" + key_id;
      // Keep the key as the configuration names it (an id or an ARN) when it is the same key.
      std::string written = GetString(prior, "target_key_id");
      Value target = written == key_id || written == key_arn ? Value::String(written) : Value::String(key_id);
      return {Value::Object({{"id", Value::String(name)},
                             {"name", Value::String(name)},
                             {"name_prefix", Get(prior, "name_prefix")},
                             {"target_key_id", target},
                             {"arn", Value::String(alias_arn)},
                             {"target_key_arn", Value::String(key_arn)}}),
              false,
              {}};
    }
    return {Value(), true, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsKmsAlias(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsKmsAlias>(std::move(session));
}

}  // namespace strata::aws
