#pragma once
// The aws provider's Auto Scaling resource and data source types: one factory per type, each
// defined in the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsAutoscalingGroup(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsAutoscalingGroupTag(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsAutoscalingGroupsData(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
