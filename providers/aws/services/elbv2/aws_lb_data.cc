// data "aws_lb" (and "aws_alb", its older name): one ELBv2 load balancer found by `arn`, by
// `name`, or by `tags` (every tag given, among the region's load balancers), with
// Terraform's attributes. As in Terraform, the search must find exactly one: none or
// several is "Search returned N results, please revise so only one is returned". An ARN or
// name AWS does not know is the same error with 0.

#include "providers/aws/services/elbv2/elbv2_api.h"
#include "providers/aws/services/elbv2/elbv2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

std::vector<std::string> XmlMembers(pugi::xml_node list, const char* field = nullptr) {
  std::vector<std::string> out;
  for (pugi::xml_node member : list.children("member")) {
    out.push_back(field ? XmlText(member, field) : member.text().as_string());
  }
  return out;
}

class AwsLbData final : public AwsDataSourceType {
 public:
  AwsLbData(std::shared_ptr<AwsSession> session, const char* type_name)
      : AwsDataSourceType(std::move(session)), type_name_(type_name) {}

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema(type_name_, {{"arn", OptionalComputed("string")},
                                                  {"name", OptionalComputed("string")},
                                                  {"tags", OptionalComputed("map(string)")},
                                                  {"arn_suffix", Computed("string")},
                                                  {"dns_name", Computed("string")},
                                                  {"zone_id", Computed("string")},
                                                  {"load_balancer_type", Computed("string")},
                                                  {"internal", Computed("bool")},
                                                  {"ip_address_type", Computed("string")},
                                                  {"security_groups", Computed("set(string)")},
                                                  {"subnets", Computed("set(string)")},
                                                  {"vpc_id", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = Elbv2Call("DescribeLoadBalancers");
    std::string arn = GetString(config, "arn"), name = GetString(config, "name");
    if (!arn.empty()) {
      call.Add("LoadBalancerArns.member.1", arn);
    } else if (!name.empty()) {
      call.Add("Names.member.1", name);
    }
    Result<std::vector<XmlResponse>> pages = CallElbv2Pages(*session_, ctx, call);
    std::vector<pugi::xml_node> found;
    if (!pages.ok() && pages.error().code != kElbv2LoadBalancerNotFound) {
      return {Value(), false, AwsErrorDiag("DescribeLoadBalancers", pages.error())};
    }
    if (pages.ok()) {
      for (const XmlResponse& page : *pages) {
        for (pugi::xml_node lb : page.result.child("LoadBalancers").children("member")) found.push_back(lb);
      }
    }
    TagMap wanted = GetStringMap(config, "tags");
    std::vector<std::string> arns;
    for (pugi::xml_node lb : found) arns.push_back(XmlText(lb, "LoadBalancerArn"));
    Result<std::vector<TagMap>> tags = DescribeElbv2Tags(*session_, ctx, arns);
    if (!tags.ok()) return {Value(), false, AwsErrorDiag("DescribeTags", tags.error())};
    std::vector<size_t> matches;
    for (size_t i = 0; i < found.size(); ++i) {
      bool all = true;
      for (const auto& [key, value] : wanted) {
        auto it = (*tags)[i].find(key);
        all = all && it != (*tags)[i].end() && it->second == value;
      }
      if (all) matches.push_back(i);
    }
    if (matches.size() != 1) {
      return {Value(), false,
              Error("No single load balancer found",
                    "Search returned " + std::to_string(matches.size()) +
                        " results, please revise so only one is returned: give the `arn` or `name` of one load "
                        "balancer, or `tags` only it carries.")};
    }
    pugi::xml_node lb = found[matches[0]];
    std::string lb_arn = XmlText(lb, "LoadBalancerArn");
    size_t suffix = lb_arn.find(":loadbalancer/");
    return {Value::Object({{"id", Value::String(lb_arn)},
                           {"arn", Value::String(lb_arn)},
                           {"arn_suffix", Value::String(suffix == std::string::npos ? "" : lb_arn.substr(suffix + 14))},
                           {"name", Value::String(XmlText(lb, "LoadBalancerName"))},
                           {"tags", TagsValue((*tags)[matches[0]])},
                           {"dns_name", Value::String(XmlText(lb, "DNSName"))},
                           {"zone_id", Value::String(XmlText(lb, "CanonicalHostedZoneId"))},
                           {"load_balancer_type", Value::String(XmlText(lb, "Type"))},
                           {"internal", Value::Bool(XmlText(lb, "Scheme") == "internal")},
                           {"ip_address_type", Value::String(XmlText(lb, "IpAddressType"))},
                           {"security_groups", StringListValue(XmlMembers(lb.child("SecurityGroups")))},
                           {"subnets", StringListValue(XmlMembers(lb.child("AvailabilityZones"), "SubnetId"))},
                           {"vpc_id", Value::String(XmlText(lb, "VpcId"))}}),
            false,
            {}};
  }

 private:
  const char* type_name_;
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsLbData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsLbData>(std::move(session), "aws_lb");
}

std::unique_ptr<DataSourceType> NewAwsAlbData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsLbData>(std::move(session), "aws_alb");
}

}  // namespace strata::aws
