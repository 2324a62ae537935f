// data "aws_partition": the ARN partition of the provider's region and its DNS names (no
// API call).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/meta/meta_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsPartition final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_partition", {{"partition", Computed("string")},
                                                       {"dns_suffix", Computed("string")},
                                                       {"reverse_dns_prefix", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    (void)ctx, (void)config;
    std::string partition = PartitionOf(session_->Region());
    std::string dns_suffix = partition == "aws-cn" ? "amazonaws.com.cn" : "amazonaws.com";
    std::string reverse = partition == "aws-cn" ? "cn.com.amazonaws" : "com.amazonaws";
    Value state = Value::Object({{"id", Value::String(partition)},
                                 {"partition", Value::String(partition)},
                                 {"dns_suffix", Value::String(dns_suffix)},
                                 {"reverse_dns_prefix", Value::String(reverse)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsPartition(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsPartition>(std::move(session));
}

}  // namespace strata::aws
