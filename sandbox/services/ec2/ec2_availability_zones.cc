// DescribeAvailabilityZones, and the zones every region has.

#include "sandbox/services/ec2/ec2_availability_zones.h"

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"

namespace strata::sandbox {
namespace {

// "us-east-1" → "use1", "ap-southeast-2" → "apse2", "eu-central-1" → "euc1".
std::string RegionCode(const std::string& region) {
  size_t first = region.find('-'), last = region.rfind('-');
  if (first == std::string::npos || first == last) return region;
  std::string area = region.substr(first + 1, last - first - 1);
  std::string code = region.substr(0, first);
  for (std::string word : {"north", "south", "east", "west", "central"}) {
    for (size_t at = area.find(word); at != std::string::npos; at = area.find(word)) {
      code += word[0];
      area.erase(at, word.size());
    }
  }
  return code + area + region.substr(last + 1);
}

Json ZoneObject(const std::string& region, const AvailabilityZone& zone) {
  return {{"id", zone.name}, {"zoneId", zone.id}, {"region", region}};
}

void DescribeAvailabilityZones(Ec2Call& call, pugi::xml_node response) {
  std::vector<Json> zones;
  for (const AvailabilityZone& zone : ZonesOf(call.region())) zones.push_back(ZoneObject(call.region(), zone));
  std::vector<std::string> wanted_ids = call.NumberedList("ZoneId");
  for (const std::string& id : wanted_ids) {
    if (!FindZone(call.region(), id)) throw InvalidParameterValue("Invalid availability zone: [" + id + "]");
  }
  auto fields = [&](const Json& zone, const std::string& name) -> std::optional<std::vector<std::string>> {
    if (name == "zone-name") return std::vector<std::string>{zone["id"]};
    if (name == "zone-id") return std::vector<std::string>{zone["zoneId"]};
    if (name == "state") return std::vector<std::string>{"available"};
    if (name == "region-name" || name == "group-name" || name == "network-border-group") {
      return std::vector<std::string>{zone["region"]};
    }
    if (name == "zone-type") return std::vector<std::string>{"availability-zone"};
    if (name == "opt-in-status") return std::vector<std::string>{"opt-in-not-required"};
    return std::nullopt;
  };
  // ZoneName.N names zones like ids do; an unknown one is InvalidParameterValue, not NotFound.
  for (const std::string& name : call.NumberedList("ZoneName")) {
    if (!FindZone(call.region(), name)) throw InvalidParameterValue("Invalid availability zone: [" + name + "]");
  }
  pugi::xml_node set = AddChild(response, "availabilityZoneInfo");
  // Zone names were checked above, so the kind (whose NotFound never fires) does not matter.
  for (const Json& zone : SelectObjects(call, kVpcKind, zones, "ZoneName", fields)) {
    if (!wanted_ids.empty() && std::find(wanted_ids.begin(), wanted_ids.end(), zone["zoneId"]) == wanted_ids.end()) {
      continue;
    }
    pugi::xml_node item = AddItem(set);
    AddText(item, "zoneName", zone["id"]);
    AddText(item, "zoneState", "available");
    AddText(item, "regionName", zone["region"]);
    AddChild(item, "messageSet");
    AddText(item, "zoneId", zone["zoneId"]);
    AddText(item, "optInStatus", "opt-in-not-required");
    AddText(item, "groupName", zone["region"]);
    AddText(item, "networkBorderGroup", zone["region"]);
    AddText(item, "zoneType", "availability-zone");
  }
}

}  // namespace

std::vector<AvailabilityZone> ZonesOf(const std::string& region) {
  std::vector<AvailabilityZone> out;
  std::string code = RegionCode(region);
  for (int i = 0; i < 3; ++i) {
    out.push_back({region + static_cast<char>('a' + i), code + "-az" + std::to_string(i + 1)});
  }
  return out;
}

std::optional<AvailabilityZone> FindZone(const std::string& region, const std::string& name_or_id) {
  for (const AvailabilityZone& zone : ZonesOf(region)) {
    if (zone.name == name_or_id || zone.id == name_or_id) return zone;
  }
  return std::nullopt;
}

void AddAvailabilityZoneActions(Ec2Actions& actions) {
  actions["DescribeAvailabilityZones"] = DescribeAvailabilityZones;
}

}  // namespace strata::sandbox
