#pragma once
// The aws provider's Route 53 types: one factory per type, each defined in the type's own
// file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsRoute53Zone(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsRoute53Record(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsRoute53ZoneData(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
