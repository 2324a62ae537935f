#pragma once
// NAT gateways' lifecycle, as other kinds see it: pending → available (or failed, when no
// internet gateway reached the VPC in time) after settings.nat_gateway_delay, deleting →
// deleted after the same delay. States are computed from stored times and the call's
// clock, so a gateway moves on without anyone writing to it.

#include <optional>
#include <string>

#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! "pending", "available", "failed", "deleting" or "deleted" at the call's time.
std::string NatGatewayState(const Ec2Call& call, const Json& nat);
//! Deleted or failed: it no longer holds its subnet address or its Elastic IP.
bool NatGatewayGone(const Ec2Call& call, const Json& nat);
//! The gateway (not gone) that holds the Elastic IP `allocation_id`.
std::optional<Json> NatGatewayUsingAddress(const Ec2Call& call, const std::string& allocation_id);

}  // namespace strata::sandbox
