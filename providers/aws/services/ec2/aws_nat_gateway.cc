// aws_nat_gateway: a NAT gateway over EC2's CreateNatGateway / DescribeNatGateways /
// DeleteNatGateway, with Terraform's attribute names. Create sends the engine's
// idempotency token as ClientToken (a create retried after a crash finds the gateway the
// first attempt made) and waits for "available"; delete waits for "deleted". Only tags
// change in place. The create also tags the gateway with its token, so a destroy that
// meets an interrupted create can look for the gateway without creating one.

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"

namespace strata::aws {
namespace {

using namespace attrs;

// EC2 client tokens are at most 64 ASCII characters.
constexpr size_t kMaxClientToken = 64;

class AwsNatGateway final : public Ec2ResourceType {
 public:
  explicit AwsNatGateway(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeNatGateways", "NatGatewayId", "natGatewaySet",
                                             "NatGatewayNotFound", "DeleteNatGateway"}) {
    ReadInBatchesBy("nat-gateway-id", 1000);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_nat_gateway", {{"subnet_id", Required("string", true)},
                                             {"allocation_id", Optional("string", true)},
                                             {"connectivity_type", OptionalComputed("string", true)},
                                             {"private_ip", OptionalComputed("string", true)},
                                             {"tags", Optional("map(string)")},
                                             {"tags_all", Computed("map(string)")},
                                             {"association_id", Computed("string")},
                                             {"network_interface_id", Computed("string")},
                                             {"public_ip", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  //! A destroy looks by the token tag alone.
  std::vector<std::string> RecoveryKey() const override { return {}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("CreateNatGateway");
    call.Add("SubnetId", GetString(planned, "subnet_id"));
    std::string allocation = GetString(planned, "allocation_id");
    if (!allocation.empty()) call.Add("AllocationId", allocation);
    call.Add("ConnectivityType", GetString(planned, "connectivity_type", "public"));
    std::string private_ip = GetString(planned, "private_ip");
    if (!private_ip.empty()) call.Add("PrivateIpAddress", private_ip);
    if (!ctx.idempotency_token.empty()) call.Add("ClientToken", ctx.idempotency_token.substr(0, kMaxClientToken));
    AddTagSpecification(call, "natgateway", TagsOnCreate(ctx, planned));

    Result<XmlResponse> created = CallEc2(*session_, ctx, call);
    if (!created.ok()) return CreateFailed("CreateNatGateway", created.error());
    std::string id = XmlText(created->result, "natGateway/natGatewayId");
    ctx.Log(LogLevel::Info, "created NAT gateway " + id + "; waiting for it to become available");
    Diagnostics diags = WaitForState(ctx, id, "available");
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    QueryRequest call = Ec2Call("DeleteNatGateway");
    call.Add("NatGatewayId", id);
    Result<XmlResponse> deleted = CallEc2(*session_, ctx, call);
    if (!deleted.ok()) {
      if (deleted.error().code == api_.not_found) return {};
      return {AwsErrorDiag("DeleteNatGateway", deleted.error())};
    }
    return {WaitForState(ctx, id, "deleted")};
  }

 protected:
  //! Nothing to look for: Create sends the same ClientToken again, and EC2 answers it with
  //! the gateway the interrupted create made.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    return ResourceType::FindCreated(ctx, planned);
  }

 public:
  //! A destroy cannot resend the ClientToken (that would create): it looks for the gateway
  //! by the token tag the create set.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    return Ec2ResourceType::FindCreated(ctx, planned);
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "connectivity_type").IsNull()) out = With(out, "connectivity_type", Value::String("public"));
    return out;
  }

 private:
  //! Polls DescribeNatGateways until the gateway is in `wanted` ("available", "deleted";
  //! a gateway no longer listed counts as deleted). "failed" ends the wait with AWS's
  //! failure code and message.
  Diagnostics WaitForState(const OperationContext& ctx, const std::string& id, const std::string& wanted) {
    auto poll = [&]() {
      WaitPoll seen;
      QueryRequest call = Ec2Call("DescribeNatGateways");
      call.Add("NatGatewayId.1", id);
      Result<XmlResponse> described = CallEc2(*session_, ctx, call);
      if (!described.ok()) {
        if (described.error().code == api_.not_found) {
          seen.status = "deleted";
          seen.done = wanted == "deleted";
          if (!seen.done) seen.diags.Error("NAT gateway vanished", "NAT gateway " + id + " is no longer listed.");
          return seen;
        }
        seen.diags = AwsErrorDiag("DescribeNatGateways", described.error());
        return seen;
      }
      pugi::xml_node item = described->result.child("natGatewaySet").child("item");
      seen.status = item ? item.child_value("state") : "deleted";
      seen.done = seen.status == wanted;
      if (!seen.done && seen.status == "failed") {
        seen.diags.Error("NAT gateway " + id + " failed",
                         std::string("AWS reports ") + item.child_value("failureCode") + ": " +
                             item.child_value("failureMessage"));
      } else if (!seen.done && seen.status == "deleted") {
        seen.diags.Error("NAT gateway vanished", "NAT gateway " + id + " was deleted while waiting for " + wanted + ".");
      }
      return seen;
    };
    return WaitFor(*session_, ctx, "NAT gateway " + id + " to become " + wanted, poll);
  }

  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    (void)ctx, (void)id, (void)prior, (void)planned;
    return {};
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    (void)ctx;
    // A deleted gateway stays listed for about an hour.
    if (std::string(item.child_value("state")) == "deleted") return {Value(), true, {}};
    pugi::xml_node address = item.child("natGatewayAddressSet").child("item");
    for (pugi::xml_node a : item.child("natGatewayAddressSet").children("item")) {
      if (std::string(a.child_value("isPrimary")) == "true") address = a;
    }
    auto text = [&](const char* name) {
      std::string s = address.child_value(name);
      return s.empty() ? Value() : Value::String(s);
    };
    TagMap remote = ReadTagSet(item);
    std::string connectivity = item.child_value("connectivityType");
    Value state = Value::Object({
        {"id", Value::String(item.child_value("natGatewayId"))},
        {"subnet_id", Value::String(item.child_value("subnetId"))},
        {"allocation_id", text("allocationId")},
        {"connectivity_type", Value::String(connectivity.empty() ? "public" : connectivity)},
        {"private_ip", text("privateIp")},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"association_id", text("associationId")},
        {"network_interface_id", text("networkInterfaceId")},
        {"public_ip", text("publicIp")}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsNatGateway(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsNatGateway>(std::move(session));
}

}  // namespace strata::aws
