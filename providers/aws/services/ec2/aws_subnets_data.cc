// data "aws_subnets": the ids of every subnet matching `tags` and `filter` blocks
// (DescribeSubnets, all pages), in the order EC2 lists them. None is not an error (Terraform:
// an empty `ids`).

#include "providers/aws/services/ec2/ec2_lookup.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsSubnetsData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_subnets", {{"filter", Optional(kEc2FilterType)},
                                                     {"tags", Optional("map(string)")},
                                                     {"ids", Computed("list(string)")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = Ec2Call("DescribeSubnets");
    AddLookupFilters(call, config, {});
    Result<std::vector<LookupItem>> items = LookupItems(*session_, ctx, call, "subnetSet", {"subnetId"});
    if (!items.ok()) return {Value(), false, AwsErrorDiag("DescribeSubnets", items.error())};
    ValueList ids;
    for (const LookupItem& item : *items) ids.push_back(Value::String(item.at("subnetId")));
    return {Value::Object({{"id", Value::String(session_->Region())},
                           {"filter", Get(config, "filter")},
                           {"tags", Get(config, "tags")},
                           {"ids", Value::List(std::move(ids))}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsSubnetsData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSubnetsData>(std::move(session));
}

}  // namespace strata::aws
