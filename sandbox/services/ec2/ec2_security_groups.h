#pragma once
// Security groups as other kinds and services need them: each VPC's "default" group, made and
// removed with the VPC, and the groups another service makes and deletes with its own objects
// (EKS's cluster security group).

#include <string>

#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! Makes the VPC's "default" group: all traffic in from itself, all traffic out.
void CreateDefaultSecurityGroup(const Ec2Call& call, const Json& vpc);
//! Removes the group and its rules, with no checks.
void EraseSecurityGroup(const Ec2Call& call, const std::string& group_id);

//! Makes, on behalf of another service in the call's region and account, the group `name` in
//! `vpc_id` with `tags` (a JSON object): all traffic in from itself, all traffic out, as EKS
//! makes a cluster's security group. Returns its id.
std::string CreateServiceSecurityGroup(ServiceContext& ctx, const std::string& vpc_id, const std::string& name,
                                       const std::string& description, const Json& tags);
//! Removes a group made so, with its rules, when its owner is gone; nothing when it is gone
//! already.
void DeleteServiceSecurityGroup(ServiceContext& ctx, const std::string& group_id);

}  // namespace strata::sandbox
