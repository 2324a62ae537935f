// aws_subnet: a subnet over EC2's CreateSubnet / DescribeSubnets / ModifySubnetAttribute /
// DeleteSubnet, with Terraform's attribute names.

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsSubnet final : public Ec2ResourceType {
 public:
  explicit AwsSubnet(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeSubnets", "SubnetId", "subnetSet",
                                             "InvalidSubnetID.NotFound", "DeleteSubnet"}) {
    ReadInBatchesBy("subnet-id", 1000);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_subnet", {{"vpc_id", Required("string", true)},
                                        {"cidr_block", Required("string", true)},
                                        {"availability_zone", OptionalComputed("string", true)},
                                        {"map_public_ip_on_launch", OptionalComputed("bool")},
                                        {"tags", Optional("map(string)")},
                                        {"tags_all", Computed("map(string)")},
                                        {"arn", Computed("string")},
                                        {"availability_zone_id", Computed("string")},
                                        {"owner_id", Computed("string")}});
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("CreateSubnet");
    call.Add("VpcId", GetString(planned, "vpc_id")).Add("CidrBlock", GetString(planned, "cidr_block"));
    std::string zone = GetString(planned, "availability_zone");
    if (!zone.empty()) call.Add("AvailabilityZone", zone);
    AddTagSpecification(call, "subnet", TagsOnCreate(ctx, planned));
    return FinishCreate(ctx, call, "subnet/subnetId", planned);
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "map_public_ip_on_launch").IsNull()) out = With(out, "map_public_ip_on_launch", Value::Bool(false));
    return out;
  }

 private:
  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    bool want = GetBool(planned, "map_public_ip_on_launch", false);
    if (want == GetBool(prior, "map_public_ip_on_launch", false)) return {};
    QueryRequest call = Ec2Call("ModifySubnetAttribute");
    call.Add("SubnetId", id).Add("MapPublicIpOnLaunch.Value", BoolText(want));
    return RunEc2(*session_, ctx, call);
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    (void)ctx;
    std::string id = item.child_value("subnetId"), owner = item.child_value("ownerId");
    std::string arn = item.child_value("subnetArn");
    if (arn.empty()) arn = MakeArn("ec2", session_->Region(), owner, "subnet/" + id);
    TagMap remote = ReadTagSet(item);
    Value state = Value::Object({
        {"id", Value::String(id)},
        {"vpc_id", Value::String(item.child_value("vpcId"))},
        {"cidr_block", Value::String(item.child_value("cidrBlock"))},
        {"availability_zone", Value::String(item.child_value("availabilityZone"))},
        {"availability_zone_id", Value::String(item.child_value("availabilityZoneId"))},
        {"map_public_ip_on_launch",
         Value::Bool(std::string(item.child_value("mapPublicIpOnLaunch")) == "true")},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(arn)},
        {"owner_id", Value::String(owner)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSubnet(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSubnet>(std::move(session));
}

}  // namespace strata::aws
