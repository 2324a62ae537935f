#pragma once
// The aws provider's S3 types: one factory per type, each defined in the type's own file
// here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsS3Bucket(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsS3BucketVersioning(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsS3BucketPublicAccessBlock(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
