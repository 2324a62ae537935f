// data "aws_autoscaling_groups": the names and ARNs of the Auto Scaling groups matching
// `names` and `filter` blocks (DescribeAutoScalingGroups, all pages), each list sorted, as
// Terraform returns them. A filter's name is one of Auto Scaling's (tag-key, tag-value,
// tag:<key>); "key" and "value" are taken as tag-key and tag-value, as Terraform takes them.
// None is not an error.

#include <algorithm>

#include "providers/aws/services/autoscaling/autoscaling_api.h"
#include "providers/aws/services/autoscaling/autoscaling_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsAutoscalingGroupsData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_autoscaling_groups",
                                     {{"filter", Optional("set(object({name=string, values=list(string)}))")},
                                      {"names", OptionalComputed("list(string)")},
                                      {"arns", Computed("list(string)")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = AutoScalingCall("DescribeAutoScalingGroups");
    std::vector<std::string> wanted = GetStringList(config, "names");
    if (!wanted.empty()) call.AddList("AutoScalingGroupNames.member", wanted);
    AddFilters(call, Get(config, "filter"));
    Result<std::vector<XmlResponse>> pages = CallAutoScalingPages(*session_, ctx, call);
    if (!pages.ok()) return {Value(), false, AwsErrorDiag("DescribeAutoScalingGroups", pages.error())};
    std::vector<std::string> names, arns;
    for (const XmlResponse& page : *pages) {
      for (pugi::xml_node group : page.result.child("AutoScalingGroups").children("member")) {
        names.push_back(XmlText(group, "AutoScalingGroupName"));
        arns.push_back(XmlText(group, "AutoScalingGroupARN"));
      }
    }
    std::sort(names.begin(), names.end());
    std::sort(arns.begin(), arns.end());
    return {Value::Object({{"id", Value::String(session_->Region())},
                           {"filter", Get(config, "filter")},
                           {"names", StringListValue(names)},
                           {"arns", StringListValue(arns)}}),
            false,
            {}};
  }

 private:
  static void AddFilters(QueryRequest& call, const Value& filters) {
    if (!filters.IsSequence()) return;
    int n = 0;
    for (const Value& filter : filters.AsList()) {
      std::string name = GetString(filter, "name");
      if (name == "key") name = "tag-key";
      if (name == "value") name = "tag-value";
      std::string member = "Filters.member." + std::to_string(++n);
      call.Add(member + ".Name", name);
      call.AddList(member + ".Values.member", GetStringList(filter, "values"));
    }
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsAutoscalingGroupsData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsAutoscalingGroupsData>(std::move(session));
}

}  // namespace strata::aws
