#pragma once
// The aws provider's CloudWatch Logs resource types: one factory per type, each defined in
// the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsCloudwatchLogGroup(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
