#pragma once
// The aws provider's IAM resource and data source types: one factory per type, each defined in
// the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsIamRole(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsIamPolicy(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsIamRolePolicyAttachment(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsIamOpenidConnectProvider(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsIamInstanceProfile(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsIamPolicyDocument(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
