#include "sandbox/ec2_refs.h"

namespace strata::sandbox {

namespace {

// EC2's requests carry the raw scope region, other services' a defaulted one: either matches.
std::optional<Json> FindInRegion(const ServiceContext& ctx, const char* kind, const std::string& id) {
  std::optional<Json> object = ctx.world.Get(kind, id);
  if (!object || !object->is_object()) return std::nullopt;
  std::string region = object->value("region", "");
  if (!region.empty() && region != ctx.request.region && region != RegionOf(ctx)) return std::nullopt;
  return object;
}

}  // namespace

std::optional<Ec2SubnetRef> FindEc2Subnet(const ServiceContext& ctx, const std::string& id) {
  std::optional<Json> subnet = FindInRegion(ctx, "ec2.subnet", id);
  if (!subnet) return std::nullopt;
  return Ec2SubnetRef{id, subnet->value("vpcId", ""), subnet->value("availabilityZone", ""),
                      subnet->value("availabilityZoneId", ""), subnet->value("cidrBlock", "")};
}

std::string Ec2SecurityGroupVpc(const ServiceContext& ctx, const std::string& id) {
  std::optional<Json> group = FindInRegion(ctx, "ec2.security_group", id);
  return group ? group->value("vpcId", "") : "";
}

std::string Ec2DefaultSecurityGroup(const ServiceContext& ctx, const std::string& vpc_id) {
  for (const auto& [id, group] : ctx.world.List("ec2.security_group")) {
    if (group.value("vpcId", "") == vpc_id && group.value("groupName", "") == "default" &&
        FindInRegion(ctx, "ec2.security_group", id)) {
      return id;
    }
  }
  return "";
}

}  // namespace strata::sandbox
