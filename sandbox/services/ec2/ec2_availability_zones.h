#pragma once
// The sandbox's availability zones: three per region, "<region>a/b/c", with AWS-shaped zone
// ids ("use1-az1").

#include <optional>
#include <string>
#include <vector>

namespace strata::sandbox {

struct AvailabilityZone {
  std::string name;  //!< "us-east-1a"
  std::string id;    //!< "use1-az1"
};

//! The region's zones, in name order.
std::vector<AvailabilityZone> ZonesOf(const std::string& region);
//! The region's zone with that name or zone id.
std::optional<AvailabilityZone> FindZone(const std::string& region, const std::string& name_or_id);

}  // namespace strata::sandbox
