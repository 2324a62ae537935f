#pragma once
// EKS tagging by ARN: TagResource (POST /tags/{resourceArn}), UntagResource
// (DELETE /tags/{resourceArn}?tagKeys=...) and ListTagsForResource (GET /tags/{resourceArn})
// for clusters, node groups and add-ons. These answer BadRequestException for a malformed
// ARN or tag, and NotFoundException (404) for an ARN naming nothing, as AWS does.

#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

Response TagResource(ServiceContext& ctx, const std::string& arn);
Response UntagResource(ServiceContext& ctx, const std::string& arn);
Response ListTagsForResource(ServiceContext& ctx, const std::string& arn);

}  // namespace strata::sandbox::eks
