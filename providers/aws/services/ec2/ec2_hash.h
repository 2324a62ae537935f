#pragma once
// Terraform's synthetic ids for objects AWS gives no id of their own (a route, a security
// group rule): they are hashes, and we compute them exactly as Terraform does so that
// state moved between the two tools keeps its ids.

#include <cstdint>
#include <string>

namespace strata::aws {

//! Terraform's create.StringHashcode: the CRC-32 (IEEE) of `s` as a non-negative number.
uint32_t StringHashcode(const std::string& s);

//! aws_route's id: "r-" + route table id + StringHashcode(destination), e.g.
//! "r-rtb-0123456789abcdef01080289494" for 10.0.0.0/16.
std::string RouteId(const std::string& route_table_id, const std::string& destination);

}  // namespace strata::aws
