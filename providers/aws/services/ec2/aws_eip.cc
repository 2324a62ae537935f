// aws_eip: an Elastic IP address over EC2's AllocateAddress / DescribeAddresses /
// ReleaseAddress, with Terraform's attribute names. The id is the allocation id. Only
// tags change in place; associating the address is left to the resources that use it
// (aws_nat_gateway). Release waits while a NAT gateway that is being deleted still holds it.

#include <mutex>

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"
#include "providers/aws/sts/sts_operations.h"

namespace strata::aws {
namespace {

using namespace attrs;

//! "1.2.3.4" → "1-2-3-4".
std::string Dashed(std::string ip) {
  for (char& c : ip) {
    if (c == '.') c = '-';
  }
  return ip;
}

class AwsEip final : public Ec2ResourceType {
 public:
  explicit AwsEip(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeAddresses", "AllocationId", "addressesSet",
                                             "InvalidAllocationID.NotFound", "ReleaseAddress"}) {
    ReadInBatchesBy("allocation-id", 0);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_eip", {{"domain", OptionalComputed("string", true)},
                                     {"public_ipv4_pool", OptionalComputed("string", true)},
                                     {"network_border_group", OptionalComputed("string", true)},
                                     {"tags", Optional("map(string)")},
                                     {"tags_all", Computed("map(string)")},
                                     {"allocation_id", Computed("string")},
                                     {"association_id", Computed("string")},
                                     {"arn", Computed("string")},
                                     {"carrier_ip", Computed("string")},
                                     {"customer_owned_ip", Computed("string")},
                                     {"instance", Computed("string")},
                                     {"network_interface", Computed("string")},
                                     {"private_dns", Computed("string")},
                                     {"private_ip", Computed("string")},
                                     {"public_dns", Computed("string")},
                                     {"public_ip", Computed("string")}});
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("AllocateAddress");
    call.Add("Domain", GetString(planned, "domain", "vpc"));
    std::string pool = GetString(planned, "public_ipv4_pool");
    if (!pool.empty()) call.Add("PublicIpv4Pool", pool);
    std::string group = GetString(planned, "network_border_group");
    if (!group.empty()) call.Add("NetworkBorderGroup", group);
    AddTagSpecification(call, "elastic-ip", TagsOnCreate(ctx, planned));
    return FinishCreate(ctx, call, "allocationId", planned);
  }

  //! A NAT gateway being deleted keeps its address for a while: AWS answers
  //! InvalidIPAddress.InUse, AuthFailure or DependencyViolation until it lets go.
  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest call = Ec2Call("ReleaseAddress");
    call.Add("AllocationId", GetString(prior, "id"));
    Result<XmlResponse> released = CallEc2Retrying(
        *session_, ctx, call, {"InvalidIPAddress.InUse", "AuthFailure", "DependencyViolation"});
    if (released.ok() || released.error().code == api_.not_found) return {};
    return {AwsErrorDiag("ReleaseAddress", released.error())};
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "domain").IsNull()) out = With(out, "domain", Value::String("vpc"));
    return out;
  }

 private:
  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    (void)ctx, (void)id, (void)prior, (void)planned;
    return {};
  }

  //! The account for the ARN: DescribeAddresses does not say who owns an address.
  Result<std::string> Account() {
    std::lock_guard lock(mu_);
    if (!account_.empty()) return account_;
    Result<CallerIdentity> who = GetCallerIdentity(*session_->client);
    if (!who.ok()) return who.error();
    account_ = who->account;
    return account_;
  }

  //! EC2's DNS names for an address, as Terraform derives them.
  std::string DnsName(const std::string& prefix, const std::string& ip, bool is_public) const {
    if (ip.empty()) return "";
    const std::string& region = session_->Region();
    std::string suffix = is_public ? (region == "us-east-1" ? "compute-1.amazonaws.com"
                                                            : region + ".compute.amazonaws.com")
                                   : (region == "us-east-1" ? "ec2.internal" : region + ".compute.internal");
    return prefix + "-" + Dashed(ip) + "." + suffix;
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    (void)ctx;
    Result<std::string> account = Account();
    if (!account.ok()) return {Value(), false, AwsErrorDiag("GetCallerIdentity", account.error())};
    std::string id = item.child_value("allocationId");
    std::string public_ip = item.child_value("publicIp"), private_ip = item.child_value("privateIpAddress");
    auto text = [&](const char* name) { return Value::String(item.child_value(name)); };
    TagMap remote = ReadTagSet(item);
    Value state = Value::Object({
        {"id", Value::String(id)},
        {"allocation_id", Value::String(id)},
        {"domain", text("domain")},
        {"public_ipv4_pool", text("publicIpv4Pool")},
        {"network_border_group", text("networkBorderGroup")},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"association_id", text("associationId")},
        {"arn", Value::String(MakeArn("ec2", session_->Region(), *account, "elastic-ip/" + id))},
        {"carrier_ip", text("carrierIp")},
        {"customer_owned_ip", text("customerOwnedIp")},
        {"instance", text("instanceId")},
        {"network_interface", text("networkInterfaceId")},
        {"private_ip", Value::String(private_ip)},
        {"private_dns", Value::String(DnsName("ip", private_ip, false))},
        {"public_ip", Value::String(public_ip)},
        {"public_dns", Value::String(DnsName("ec2", public_ip, true))}});
    return {state, false, {}};
  }

  std::mutex mu_;
  std::string account_;
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEip(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEip>(std::move(session));
}

}  // namespace strata::aws
