#include "providers/aws/services/autoscaling/autoscaling_api.h"

#include "providers/aws/client/paginator.h"

namespace strata::aws {

QueryRequest AutoScalingCall(const std::string& action) { return QueryRequest{action, kAutoScalingVersion, {}}; }

Result<XmlResponse> CallAutoScaling(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  return CallQuery(session, ctx, "autoscaling", call, CallOptionsFor(ctx));
}

Result<std::vector<XmlResponse>> CallAutoScalingPages(const AwsSession& session, const OperationContext& ctx,
                                                      const QueryRequest& call) {
  return CollectPages<XmlResponse>(
      [&](const std::string& token) {
        QueryRequest page = call;
        if (!token.empty()) page.Add("NextToken", token);
        return CallAutoScaling(session, ctx, page);
      },
      XmlNextToken("NextToken"));
}

void AddGroupTag(QueryRequest& call, int n, const std::string& group, const GroupTag& tag) {
  std::string member = "Tags.member." + std::to_string(n) + ".";
  call.Add(member + "ResourceId", group);
  call.Add(member + "ResourceType", "auto-scaling-group");
  call.Add(member + "Key", tag.key);
  call.Add(member + "Value", tag.value);
  call.Add(member + "PropagateAtLaunch", tag.propagate_at_launch ? "true" : "false");
}

Result<std::optional<GroupTag>> DescribeGroupTag(const AwsSession& session, const OperationContext& ctx,
                                                 const std::string& group, const std::string& key) {
  QueryRequest call = AutoScalingCall("DescribeTags");
  call.Add("Filters.member.1.Name", "auto-scaling-group");
  call.Add("Filters.member.1.Values.member.1", group);
  call.Add("Filters.member.2.Name", "key");
  call.Add("Filters.member.2.Values.member.1", key);
  Result<std::vector<XmlResponse>> pages = CallAutoScalingPages(session, ctx, call);
  if (!pages.ok()) return pages.error();
  for (const XmlResponse& page : *pages) {
    for (pugi::xml_node tag : page.result.child("Tags").children("member")) {
      // Filters are matched by the service; the check keeps a lax emulator honest.
      if (XmlText(tag, "ResourceId") != group || XmlText(tag, "Key") != key) continue;
      return std::optional<GroupTag>(GroupTag{key, XmlText(tag, "Value"), XmlText(tag, "PropagateAtLaunch") == "true"});
    }
  }
  return std::optional<GroupTag>();
}

bool IsGroupNotFound(const AwsError& error) {
  return error.code == "ValidationError" && error.message.find("not found") != std::string::npos;
}

}  // namespace strata::aws
