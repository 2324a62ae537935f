// data "aws_availability_zones": the region's zones (ec2:DescribeAvailabilityZones),
// optionally only those in `state` ("available", ...), sorted by name as Terraform does.

#include <algorithm>
#include <utility>
#include <vector>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/ec2/ec2_api.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsAvailabilityZones final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_availability_zones", {{"state", Optional("string")},
                                                                {"names", Computed("list(string)")},
                                                                {"zone_ids", Computed("list(string)")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = Ec2Call("DescribeAvailabilityZones");
    std::string state = GetString(config, "state");
    if (!state.empty()) AddFilter(call, 1, "state", state);
    Result<XmlResponse> response = CallEc2(*session_, ctx, call);
    if (!response.ok()) {
      return {Value(), false, AwsErrorDiag("DescribeAvailabilityZones", response.error())};
    }
    std::vector<std::pair<std::string, std::string>> zones;
    for (pugi::xml_node z : response->result.child("availabilityZoneInfo").children("item")) {
      zones.emplace_back(z.child_value("zoneName"), z.child_value("zoneId"));
    }
    std::sort(zones.begin(), zones.end());
    std::vector<std::string> names, ids;
    for (const auto& [name, id] : zones) names.push_back(name), ids.push_back(id);
    Value out = Value::Object({{"id", Value::String(session_->Region())},
                               {"state", state.empty() ? Value() : Value::String(state)},
                               {"names", StringListValue(names)},
                               {"zone_ids", StringListValue(ids)}});
    return {out, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsAvailabilityZones(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsAvailabilityZones>(std::move(session));
}

}  // namespace strata::aws
