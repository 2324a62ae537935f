#pragma once
// Route tables as other kinds need them: every VPC's main route table, made with the VPC,
// and subnets' associations, which go with their subnet.

#include <string>

#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! Makes and saves the VPC's main route table: the local route, the main association.
void CreateMainRouteTable(const Ec2Call& call, const Json& vpc);
//! True when the table holds its VPC's main association.
bool IsMainRouteTable(const Json& table);
//! Removes the subnet's association, if it has one (its subnet is being deleted).
void DropSubnetAssociations(const Ec2Call& call, const std::string& subnet_id);

}  // namespace strata::sandbox
