// aws_vpc: a VPC over EC2's CreateVpc / DescribeVpcs / ModifyVpcAttribute / DeleteVpc, with
// Terraform's attribute names. enable_dns_* live behind DescribeVpcAttribute, and the main
// route table behind DescribeRouteTables.

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsVpc final : public Ec2ResourceType {
 public:
  explicit AwsVpc(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeVpcs", "VpcId", "vpcSet",
                                             "InvalidVpcID.NotFound", "DeleteVpc"}) {
    ReadInBatchesBy("vpc-id", 1000);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_vpc", {{"cidr_block", Required("string", true)},
                                     {"enable_dns_hostnames", OptionalComputed("bool")},
                                     {"enable_dns_support", OptionalComputed("bool")},
                                     {"tags", Optional("map(string)")},
                                     {"tags_all", Computed("map(string)")},
                                     {"arn", Computed("string")},
                                     {"default_route_table_id", Computed("string")},
                                     {"owner_id", Computed("string")}});
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("CreateVpc");
    call.Add("CidrBlock", GetString(planned, "cidr_block"));
    AddTagSpecification(call, "vpc", TagsOnCreate(ctx, planned));
    return FinishCreate(ctx, call, "vpc/vpcId", planned);
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "enable_dns_support").IsNull()) out = With(out, "enable_dns_support", Value::Bool(true));
    if (Get(out, "enable_dns_hostnames").IsNull()) out = With(out, "enable_dns_hostnames", Value::Bool(false));
    return out;
  }

 private:
  //! ModifyVpcAttribute for each enable_dns_* that differs: one attribute per call.
  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    for (auto [attr, param, aws_default] : {std::tuple{"enable_dns_support", "EnableDnsSupport", true},
                                            std::tuple{"enable_dns_hostnames", "EnableDnsHostnames", false}}) {
      bool want = GetBool(planned, attr, aws_default);
      if (want == GetBool(prior, attr, aws_default)) continue;
      QueryRequest call = Ec2Call("ModifyVpcAttribute");
      call.Add("VpcId", id).Add(std::string(param) + ".Value", BoolText(want));
      Diagnostics diags = RunEc2(*session_, ctx, call);
      if (diags.HasErrors()) return diags;
    }
    return {};
  }

  Result<std::string> DescribeAttribute(const OperationContext& ctx, const std::string& id,
                                        const std::string& attribute) {
    QueryRequest call = Ec2Call("DescribeVpcAttribute");
    call.Add("VpcId", id).Add("Attribute", attribute);
    Result<XmlResponse> response = CallEc2(*session_, ctx, call);
    if (!response.ok()) return response.error();
    return XmlText(response->result, attribute + "/value");
  }

  Result<std::string> MainRouteTable(const OperationContext& ctx, const std::string& id) {
    QueryRequest call = Ec2Call("DescribeRouteTables");
    AddFilter(call, 1, "vpc-id", id);
    AddFilter(call, 2, "association.main", "true");
    Result<XmlResponse> response = CallEc2(*session_, ctx, call);
    if (!response.ok()) return response.error();
    return XmlText(response->result, "routeTableSet/item/routeTableId");
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    std::string id = item.child_value("vpcId"), owner = item.child_value("ownerId");
    Result<std::string> support = DescribeAttribute(ctx, id, "enableDnsSupport");
    if (!support.ok()) return {Value(), false, AwsErrorDiag("DescribeVpcAttribute", support.error())};
    Result<std::string> hostnames = DescribeAttribute(ctx, id, "enableDnsHostnames");
    if (!hostnames.ok()) return {Value(), false, AwsErrorDiag("DescribeVpcAttribute", hostnames.error())};
    Result<std::string> route_table = MainRouteTable(ctx, id);
    if (!route_table.ok()) return {Value(), false, AwsErrorDiag("DescribeRouteTables", route_table.error())};
    TagMap remote = ReadTagSet(item);
    Value state = Value::Object({
        {"id", Value::String(id)},
        {"cidr_block", Value::String(item.child_value("cidrBlock"))},
        {"enable_dns_support", Value::Bool(*support == "true")},
        {"enable_dns_hostnames", Value::Bool(*hostnames == "true")},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(MakeArn("ec2", session_->Region(), owner, "vpc/" + id))},
        {"default_route_table_id", Value::String(*route_table)},
        {"owner_id", Value::String(owner)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsVpc(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsVpc>(std::move(session));
}

}  // namespace strata::aws
