#pragma once
// Security groups as other kinds need them: each VPC's "default" group, made and removed
// with the VPC.

#include <string>

#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! Makes the VPC's "default" group: all traffic in from itself, all traffic out.
void CreateDefaultSecurityGroup(const Ec2Call& call, const Json& vpc);
//! Removes the group and its rules, with no checks.
void EraseSecurityGroup(const Ec2Call& call, const std::string& group_id);

}  // namespace strata::sandbox
