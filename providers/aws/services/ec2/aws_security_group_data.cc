// data "aws_security_group": the one security group that matches `id`, `name`, `vpc_id`,
// `tags` and `filter` blocks (DescribeSecurityGroups), with aws_security_group's
// attributes (read through that type). No match, or more than one, is an error as in
// Terraform.

#include "providers/aws/services/ec2/ec2_lookup.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsSecurityGroupData final : public AwsDataSourceType {
 public:
  explicit AwsSecurityGroupData(std::shared_ptr<AwsSession> session)
      : AwsDataSourceType(session), managed_(NewAwsSecurityGroup(std::move(session))) {}

  ResourceSchema Schema() const override {
    ResourceSchema s = LookupSchema(managed_->Schema());
    s.attributes["id"] = OptionalComputed("string");
    s.attributes["name"] = OptionalComputed("string");
    s.attributes["vpc_id"] = OptionalComputed("string");
    s.attributes["tags"] = OptionalComputed("map(string)");
    s.attributes["filter"] = Optional(kEc2FilterType);
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = Ec2Call("DescribeSecurityGroups");
    if (Get(config, "id").IsString()) call.Add("GroupId.1", GetString(config, "id"));
    std::vector<std::pair<std::string, std::string>> extra;
    if (Get(config, "name").IsString()) extra.emplace_back("group-name", GetString(config, "name"));
    if (Get(config, "vpc_id").IsString()) extra.emplace_back("vpc-id", GetString(config, "vpc_id"));
    AddLookupFilters(call, config, extra);
    Result<std::vector<LookupItem>> items = LookupItems(*session_, ctx, call, "securityGroupInfo", {"groupId"});
    if (!items.ok()) return {Value(), false, AwsErrorDiag("DescribeSecurityGroups", items.error())};
    Diagnostics diags;
    const LookupItem* group = ExactlyOne(*items, "aws_security_group", "EC2 Security Group", diags);
    if (!group) return {Value(), false, diags};
    return LookupState(*managed_, ctx, group->at("groupId"), config, {"filter"});
  }

 private:
  std::unique_ptr<ResourceType> managed_;
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsSecurityGroupData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSecurityGroupData>(std::move(session));
}

}  // namespace strata::aws
