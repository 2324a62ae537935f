#pragma once
// Calling Elastic Load Balancing v2 (query protocol, API version 2015-12-01; regional,
// endpoint override key "elbv2", signing name "elasticloadbalancing") from a type:
// Describe* calls followed through every NextMarker, and a load balancer's tags.

#include <string>
#include <vector>

#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/tags.h"

namespace strata::aws {

inline constexpr const char* kElbv2Version = "2015-12-01";
inline constexpr const char* kElbv2LoadBalancerNotFound = "LoadBalancerNotFound";

//! An ELBv2 call with no parameters yet.
QueryRequest Elbv2Call(const std::string& action);
//! Every page of a Describe* `call` (Marker / NextMarker followed), in order.
Result<std::vector<XmlResponse>> CallElbv2Pages(const AwsSession& session, const OperationContext& ctx,
                                                const QueryRequest& call);
//! The tags of each resource of `arns` (DescribeTags, 20 ARNs a call), in the order of
//! `arns`, without the create-token tag.
Result<std::vector<TagMap>> DescribeElbv2Tags(const AwsSession& session, const OperationContext& ctx,
                                              const std::vector<std::string>& arns);

}  // namespace strata::aws
