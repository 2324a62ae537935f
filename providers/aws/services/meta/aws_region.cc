// data "aws_region": the provider's configured region (no API call).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/meta/meta_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsRegion final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_region", {{"name", OptionalComputed("string")},
                                                    {"endpoint", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    (void)ctx;
    std::string name = GetString(config, "name", session_->Region());
    if (name != session_->Region()) {
      return {Value(), false,
              Error("Region not supported",
                    "data \"aws_region\" can only describe the provider's region \"" +
                        session_->Region() + "\", not \"" + name + "\".")};
    }
    Result<ResolvedEndpoint> ec2 = session_->client->Endpoint("ec2");
    std::string endpoint = ec2.ok() ? ec2->url : "";
    Value state = Value::Object({{"id", Value::String(name)},
                                 {"name", Value::String(name)},
                                 {"endpoint", Value::String(endpoint)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsRegion(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRegion>(std::move(session));
}

}  // namespace strata::aws
