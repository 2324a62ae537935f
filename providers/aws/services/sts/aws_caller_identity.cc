// data "aws_caller_identity": who the provider's credentials are (sts:GetCallerIdentity).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/sts/sts_types.h"
#include "providers/aws/sts/sts_operations.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsCallerIdentity final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_caller_identity", {{"account_id", Computed("string")},
                                                             {"arn", Computed("string")},
                                                             {"user_id", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    (void)ctx, (void)config;
    Result<CallerIdentity> who = GetCallerIdentity(*session_->client);
    if (!who.ok()) return {Value(), false, AwsErrorDiag("GetCallerIdentity", who.error())};
    Value state = Value::Object({{"id", Value::String(who->account)},
                                 {"account_id", Value::String(who->account)},
                                 {"arn", Value::String(who->arn)},
                                 {"user_id", Value::String(who->user_id)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsCallerIdentity(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCallerIdentity>(std::move(session));
}

}  // namespace strata::aws
