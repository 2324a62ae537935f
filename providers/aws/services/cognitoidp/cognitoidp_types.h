#pragma once
// The aws provider's Cognito user pool types: one factory per type, each defined in the
// type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsCognitoUserPool(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsCognitoUserPoolDomain(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsCognitoIdentityProvider(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsCognitoUserPoolClient(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
