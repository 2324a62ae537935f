// aws_internet_gateway: an internet gateway over EC2's CreateInternetGateway /
// DescribeInternetGateways / AttachInternetGateway / DetachInternetGateway /
// DeleteInternetGateway, with Terraform's attribute names. `vpc_id` is attached and
// detached in place; delete detaches first.

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsInternetGateway final : public Ec2ResourceType {
 public:
  explicit AwsInternetGateway(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session),
                        {"DescribeInternetGateways", "InternetGatewayId", "internetGatewaySet",
                         "InvalidInternetGatewayID.NotFound", "DeleteInternetGateway"}) {
    ReadInBatchesBy("internet-gateway-id", 1000);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_internet_gateway", {{"vpc_id", Optional("string")},
                                                  {"tags", Optional("map(string)")},
                                                  {"tags_all", Computed("map(string)")},
                                                  {"arn", Computed("string")},
                                                  {"owner_id", Computed("string")}});
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("CreateInternetGateway");
    AddTagSpecification(call, "internet-gateway", TagsOnCreate(ctx, planned));
    return FinishCreate(ctx, call, "internetGateway/internetGatewayId", planned);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    std::string vpc = GetString(prior, "vpc_id");
    if (!vpc.empty()) {
      Diagnostics diags = Detach(ctx, id, vpc);
      if (diags.HasErrors()) return {diags};
    }
    // A NAT gateway or an EIP in the VPC may still be mapped while they are released.
    QueryRequest call = Ec2Call("DeleteInternetGateway");
    call.Add("InternetGatewayId", id);
    Result<XmlResponse> deleted = CallEc2Retrying(*session_, ctx, call, {"DependencyViolation"});
    if (deleted.ok() || deleted.error().code == api_.not_found) return {};
    return {AwsErrorDiag("DeleteInternetGateway", deleted.error())};
  }

 private:
  //! Detaching waits out DependencyViolation: public addresses in the VPC (NAT gateways,
  //! EIPs) block it until they are released.
  Diagnostics Detach(const OperationContext& ctx, const std::string& id, const std::string& vpc) {
    QueryRequest call = Ec2Call("DetachInternetGateway");
    call.Add("InternetGatewayId", id).Add("VpcId", vpc);
    Result<XmlResponse> detached = CallEc2Retrying(*session_, ctx, call, {"DependencyViolation"});
    if (detached.ok()) return {};
    const std::string& code = detached.error().code;
    if (code == api_.not_found || code == "Gateway.NotAttached") return {};
    return AwsErrorDiag("DetachInternetGateway", detached.error());
  }

  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    std::string from = GetString(prior, "vpc_id"), to = GetString(planned, "vpc_id");
    if (from == to) return {};
    if (!from.empty()) {
      Diagnostics diags = Detach(ctx, id, from);
      if (diags.HasErrors()) return diags;
    }
    if (to.empty()) return {};
    QueryRequest call = Ec2Call("AttachInternetGateway");
    call.Add("InternetGatewayId", id).Add("VpcId", to);
    return RunEc2(*session_, ctx, call, {"Resource.AlreadyAssociated"});
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    (void)ctx;
    std::string id = item.child_value("internetGatewayId"), owner = item.child_value("ownerId");
    Value vpc;
    for (pugi::xml_node a : item.child("attachmentSet").children("item")) {
      std::string state = a.child_value("state");
      if (state == "detached" || state == "detaching") continue;
      vpc = Value::String(a.child_value("vpcId"));
    }
    TagMap remote = ReadTagSet(item);
    Value state = Value::Object({
        {"id", Value::String(id)},
        {"vpc_id", vpc},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(MakeArn("ec2", session_->Region(), owner, "internet-gateway/" + id))},
        {"owner_id", Value::String(owner)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsInternetGateway(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsInternetGateway>(std::move(session));
}

}  // namespace strata::aws
