// data "aws_vpc": the one VPC that matches `id`, `cidr_block`, `default`, `state`,
// `dhcp_options_id`, `tags` and `filter` blocks (DescribeVpcs), with aws_vpc's attributes
// (read through that type). No match, or more than one, is an error as in Terraform.

#include "providers/aws/services/ec2/ec2_lookup.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsVpcData final : public AwsDataSourceType {
 public:
  explicit AwsVpcData(std::shared_ptr<AwsSession> session)
      : AwsDataSourceType(session), managed_(NewAwsVpc(std::move(session))) {}

  ResourceSchema Schema() const override {
    ResourceSchema s = LookupSchema(managed_->Schema());
    s.attributes["id"] = OptionalComputed("string");
    s.attributes["cidr_block"] = OptionalComputed("string");
    s.attributes["dhcp_options_id"] = OptionalComputed("string");
    s.attributes["tags"] = OptionalComputed("map(string)");
    s.attributes["default"] = OptionalComputed("bool");
    s.attributes["state"] = OptionalComputed("string");
    s.attributes["filter"] = Optional(kEc2FilterType);
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = Ec2Call("DescribeVpcs");
    if (Get(config, "id").IsString()) call.Add("VpcId.1", GetString(config, "id"));
    std::vector<std::pair<std::string, std::string>> extra;
    if (Get(config, "cidr_block").IsString()) extra.emplace_back("cidr", GetString(config, "cidr_block"));
    if (Get(config, "dhcp_options_id").IsString()) extra.emplace_back("dhcp-options-id", GetString(config, "dhcp_options_id"));
    if (Get(config, "state").IsString()) extra.emplace_back("state", GetString(config, "state"));
    if (Get(config, "default").IsBool()) extra.emplace_back("is-default", BoolText(Get(config, "default").AsBool()));
    AddLookupFilters(call, config, extra);
    Result<std::vector<LookupItem>> items = LookupItems(*session_, ctx, call, "vpcSet", {"vpcId", "isDefault", "state"});
    if (!items.ok()) return {Value(), false, AwsErrorDiag("DescribeVpcs", items.error())};
    Diagnostics diags;
    const LookupItem* vpc = ExactlyOne(*items, "aws_vpc", "EC2 VPC", diags);
    if (!vpc) return {Value(), false, diags};
    ReadResult found = LookupState(*managed_, ctx, vpc->at("vpcId"), config, {"filter"});
    if (found.diags.HasErrors()) return found;
    found.state = With(found.state, "default", Value::Bool(vpc->at("isDefault") == "true"));
    found.state = With(found.state, "state", Value::String(vpc->at("state")));
    return found;
  }

 private:
  std::unique_ptr<ResourceType> managed_;
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsVpcData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsVpcData>(std::move(session));
}

}  // namespace strata::aws
