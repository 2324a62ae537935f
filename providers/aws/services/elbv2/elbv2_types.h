#pragma once
// The aws provider's Elastic Load Balancing v2 types: one factory per type, each defined in
// the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

//! data "aws_lb", and the same under its older name "aws_alb".
std::unique_ptr<DataSourceType> NewAwsLbData(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsAlbData(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
