#pragma once
// The Elastic Load Balancing v2 API (awsQuery, version 2015-12-01) as the sandbox serves it:
// elbv2_service.cc keeps load balancers and the tag calls, elbv2_target_groups.cc target
// groups and listeners; what they share is declared here. Each kind is a World document
// keyed by ARN, in AWS's member names, with the sandbox's "region" and "tags" beside them.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/protocol/query_page.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/query_service.h"

namespace strata::sandbox::elbv2 {

inline constexpr const char* kLoadBalancerKind = "elbv2_load_balancer";
inline constexpr const char* kTargetGroupKind = "elbv2_target_group";
inline constexpr const char* kListenerKind = "elbv2_listener";

//! 400 ValidationError with a free-text message, as ELBv2 words them.
ApiError ElbValidation(const std::string& message);
//! The load balancer `arn` in the call's region, its state brought up to date.
std::optional<Json> FindLoadBalancer(ServiceContext& ctx, const std::string& arn);
//! `tags` with the call's Tags.member.N added (TooManyTags beyond 50).
Json TagsFrom(const AwsQueryParams& params, Json tags);
//! The world kind whose ARNs look like `arn` (…:targetgroup/…, …:listener/…, else load balancers).
const char* KindOfArn(const std::string& arn);

//! Writes the page of `items` the call's PageSize (1..400, default 400) and Marker select:
//! each item as `write(list, item)` under the element `list_name`, then <NextMarker> when
//! more follow.
template <typename Write>
void WriteElbPage(QueryCall& call, const char* list_name, const std::vector<Json>& items, Write write) {
  QueryPage page = SelectQueryPage(call.params, items.size(), QueryPaging{"PageSize", "Marker", 400, 400});
  pugi::xml_node list = AddChild(call.result, list_name);
  for (size_t i = page.begin; i < page.end; ++i) write(list, items[i]);
  if (page.truncated) AddText(call.result, "NextMarker", page.next_token);
}

//! CreateTargetGroup, DescribeTargetGroups, DeleteTargetGroup, CreateListener,
//! DescribeListeners, DeleteListener.
void AddTargetGroupActions(QueryCallTable& table);
//! Removes the listeners of the load balancer `arn` (it is being deleted).
void DeleteListenersOf(ServiceContext& ctx, const std::string& arn);

}  // namespace strata::sandbox::elbv2
