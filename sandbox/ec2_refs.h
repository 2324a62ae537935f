#pragma once
// How the services that place objects in a VPC (EFS mount targets, FSx file systems) see the
// subnets and security groups the EC2 service keeps in the world: only reads, in the call's
// region. (EC2 keeps one document per object under "ec2.<kind>", keyed by id, with the
// region it was made in: sandbox/services/ec2/ec2_store.h.)

#include <optional>
#include <string>

#include "sandbox/service.h"

namespace strata::sandbox {

//! What a service placing an object needs to know of a subnet.
struct Ec2SubnetRef {
  std::string id;
  std::string vpc_id;
  std::string availability_zone;     //!< "us-east-1a"
  std::string availability_zone_id;  //!< "use1-az1"
  std::string cidr_block;
};

//! The subnet `id` in the call's region, if EC2 has it.
std::optional<Ec2SubnetRef> FindEc2Subnet(const ServiceContext& ctx, const std::string& id);
//! The VPC of the security group `id` in the call's region ("" when EC2 has no such group).
std::string Ec2SecurityGroupVpc(const ServiceContext& ctx, const std::string& id);
//! The id of the "default" security group of `vpc_id` ("" when EC2 has none).
std::string Ec2DefaultSecurityGroup(const ServiceContext& ctx, const std::string& vpc_id);

}  // namespace strata::sandbox
