#pragma once
// Calling Auto Scaling (query protocol, API version 2011-01-01; regional, endpoint override
// key "autoscaling") from a resource type, and what the Auto Scaling types share: a group's
// tags (Tags.member.N with ResourceId, ResourceType, Key, Value, PropagateAtLaunch) and
// Describe* calls followed through every NextToken.

#include <optional>
#include <string>
#include <vector>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kAutoScalingVersion = "2011-01-01";

//! An Auto Scaling call with no parameters yet.
QueryRequest AutoScalingCall(const std::string& action);

//! Sends `call` to Auto Scaling with the context's deadline and cancellation.
Result<XmlResponse> CallAutoScaling(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call);
//! Every page of a Describe* `call` (NextToken followed), in order.
Result<std::vector<XmlResponse>> CallAutoScalingPages(const AwsSession& session, const OperationContext& ctx,
                                                      const QueryRequest& call);

//! One tag of an Auto Scaling group.
struct GroupTag {
  std::string key;
  std::string value;
  bool propagate_at_launch = false;
};

//! Adds the `n`th entry (from 1) of a Tags parameter: `tag` on the group `group`.
void AddGroupTag(QueryRequest& call, int n, const std::string& group, const GroupTag& tag);

//! The tag `key` of the group `group` (DescribeTags filtered by both), or nullopt when the
//! group has no such tag or does not exist.
Result<std::optional<GroupTag>> DescribeGroupTag(const AwsSession& session, const OperationContext& ctx,
                                                 const std::string& group, const std::string& key);

//! Whether `error` says the Auto Scaling group named in the call does not exist
//! (ValidationError "AutoScalingGroup not found", or "... name not found").
bool IsGroupNotFound(const AwsError& error);

}  // namespace strata::aws
