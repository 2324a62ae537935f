// data "aws_secretsmanager_secret_version": a secret's value, by GetSecretValue, with
// Terraform's attributes: the version `version_id` names, else the one holding the label
// `version_stage` (AWSCURRENT by default). `secret_string` and `secret_binary` are sensitive:
// a plan shows them as (sensitive value), and so does everything computed from them.

#include "engine/base/time_format.h"
#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/secretsmanager/secretsmanager_api.h"
#include "providers/aws/services/secretsmanager/secretsmanager_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsSecretsmanagerSecretVersionData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_secretsmanager_secret_version",
                                     {{"secret_id", Required("string")},
                                      {"version_id", OptionalComputed("string")},
                                      {"version_stage", OptionalComputed("string")},
                                      {"arn", Computed("string")},
                                      {"created_date", Computed("string")},
                                      {"secret_string", Computed("string", /*sensitive=*/true)},
                                      {"secret_binary", Computed("string", /*sensitive=*/true)},
                                      {"version_stages", Computed("list(string)")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    std::string secret = GetString(config, "secret_id");
    json body = {{"SecretId", secret}};
    if (Get(config, "version_id").IsString()) body["VersionId"] = GetString(config, "version_id");
    std::string stage = GetString(config, "version_stage", body.contains("VersionId") ? "" : "AWSCURRENT");
    if (!stage.empty()) body["VersionStage"] = stage;
    Result<json> got = CallSecretsManager(*session_, ctx, "GetSecretValue", body);
    if (!got.ok()) {
      Diagnostics diags = AwsErrorDiag("GetSecretValue", got.error());
      if (SecretGone(got.error())) {
        diags.Error("No value of secret \"" + secret + "\"",
                    ctx.address + ": Secrets Manager in " + session_->Region() +
                        " has no such secret (or it is scheduled for deletion), or no version of it with " +
                        (body.contains("VersionId") ? "that version_id" : "the label " + stage) +
                        ". Check secret_id, the version, and the region; put a value with aws_secretsmanager_secret_version.");
      }
      return {Value(), false, diags};
    }
    const json& version = *got;
    auto sensitive = [&](const char* member) {
      return version.contains(member) && version[member].is_string()
                 ? Value::String(version[member].get<std::string>()).MarkSensitive() : Value();
    };
    std::string arn = JsonString(version, "ARN"), id = JsonString(version, "VersionId");
    std::string created;
    if (version.contains("CreatedDate") && version["CreatedDate"].is_number()) {
      auto seconds = std::chrono::seconds(static_cast<int64_t>(version["CreatedDate"].get<double>()));
      created = FormatRfc3339(std::chrono::system_clock::time_point(seconds));
    }
    return {Value::Object({{"id", Value::String(arn + "|" + id)},
                           {"secret_id", Value::String(secret)},
                           {"version_id", Value::String(id)},
                           {"version_stage", stage.empty() ? Value() : Value::String(stage)},
                           {"arn", Value::String(arn)},
                           {"created_date", Value::String(created)},
                           {"secret_string", sensitive("SecretString")},
                           {"secret_binary", sensitive("SecretBinary")},
                           {"version_stages", StringListValue(SecretVersionStages(version))}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsSecretsmanagerSecretVersionData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSecretsmanagerSecretVersionData>(std::move(session));
}

}  // namespace strata::aws
