#pragma once
// The aws provider's FSx resource types: one factory per type, each defined in the type's
// own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsFsxLustreFileSystem(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
