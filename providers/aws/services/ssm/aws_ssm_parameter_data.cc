// data "aws_ssm_parameter": one Systems Manager parameter by name (GetParameter, awsJson 1.1,
// target prefix AmazonSSM) — most often the EKS-optimized AMI id AWS publishes under
// /aws/service/eks/optimized-ami/<version>/<flavour>/recommended/image_id. Terraform's
// attributes: `value` is sensitive whatever the type; `insecure_value` holds it in clear for
// String and StringList parameters only; `with_decryption` (default true) decrypts a
// SecureString. A missing parameter is an error naming it.

#include <cmath>

#include <nlohmann/json.hpp>

#include "providers/aws/common/json_rpc_call.h"
#include "providers/aws/services/ssm/ssm_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsSsmParameterData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_ssm_parameter", {{"name", Required("string")},
                                                           {"with_decryption", Optional("bool")},
                                                           {"arn", Computed("string")},
                                                           {"type", Computed("string")},
                                                           {"value", Computed("string", /*sensitive=*/true)},
                                                           {"insecure_value", Computed("string")},
                                                           {"version", Computed("number")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    std::string name = GetString(config, "name");
    Result<nlohmann::json> got =
        CallJsonRpc(*session_, ctx, {"ssm", "AmazonSSM"}, "GetParameter",
                    {{"Name", name}, {"WithDecryption", GetBool(config, "with_decryption", true)}}, CallOptionsFor(ctx));
    if (!got.ok()) {
      Diagnostics diags = AwsErrorDiag("GetParameter", got.error());
      if (got.error().code == "ParameterNotFound") {
        diags.Error("No SSM parameter \"" + name + "\"",
                    "data \"aws_ssm_parameter\": no parameter of that name in " + session_->Region() +
                        ". Check the name (public parameters start with /aws/service/) and the region.");
      }
      return {Value(), false, diags};
    }
    const nlohmann::json& parameter = (*got)["Parameter"];
    std::string type = parameter.value("Type", "");
    std::string value = parameter.value("Value", "");
    double version = parameter.contains("Version") && parameter["Version"].is_number() ? parameter["Version"].get<double>() : 0;
    return {Value::Object({{"id", Value::String(parameter.value("Name", name))},
                           {"name", Value::String(parameter.value("Name", name))},
                           {"with_decryption", Get(config, "with_decryption")},
                           {"arn", Value::String(parameter.value("ARN", ""))},
                           {"type", Value::String(type)},
                           {"value", Value::String(value).MarkSensitive()},
                           {"insecure_value", type == "SecureString" ? Value() : Value::String(value)},
                           {"version", Value::Number(std::floor(version))}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsSsmParameterData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSsmParameterData>(std::move(session));
}

}  // namespace strata::aws
