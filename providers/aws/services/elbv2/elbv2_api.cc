#include "providers/aws/services/elbv2/elbv2_api.h"

#include <algorithm>
#include <map>

#include "providers/aws/client/paginator.h"

namespace strata::aws {

QueryRequest Elbv2Call(const std::string& action) { return QueryRequest{action, kElbv2Version, {}}; }

Result<std::vector<XmlResponse>> CallElbv2Pages(const AwsSession& session, const OperationContext& ctx,
                                                const QueryRequest& call) {
  return CollectPages<XmlResponse>(
      [&](const std::string& marker) {
        QueryRequest page = call;
        if (!marker.empty()) page.Add("Marker", marker);
        return CallQuery(session, ctx, "elbv2", page, CallOptionsFor(ctx));
      },
      XmlNextToken("NextMarker"));
}

Result<std::vector<TagMap>> DescribeElbv2Tags(const AwsSession& session, const OperationContext& ctx,
                                              const std::vector<std::string>& arns) {
  std::map<std::string, TagMap> by_arn;
  for (size_t begin = 0; begin < arns.size(); begin += 20) {
    QueryRequest call = Elbv2Call("DescribeTags");
    call.AddList("ResourceArns.member",
                 std::vector<std::string>(arns.begin() + static_cast<long>(begin),
                                          arns.begin() + static_cast<long>(std::min(arns.size(), begin + 20))));
    Result<XmlResponse> answer = CallQuery(session, ctx, "elbv2", call, CallOptionsFor(ctx));
    if (!answer.ok()) return answer.error();
    for (pugi::xml_node description : answer->result.child("TagDescriptions").children("member")) {
      by_arn[XmlText(description, "ResourceArn")] = ReadTagList(description.child("Tags"), "member", "Key", "Value");
    }
  }
  std::vector<TagMap> out;
  for (const std::string& arn : arns) out.push_back(by_arn[arn]);
  return out;
}

}  // namespace strata::aws
