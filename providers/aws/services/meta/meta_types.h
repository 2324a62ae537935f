#pragma once
// The aws provider's data sources that belong to no service (the region, the partition): one factory per type, each defined in
// the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<DataSourceType> NewAwsPartition(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsRegion(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
