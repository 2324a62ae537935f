#pragma once
// The aws provider's EKS resource and data source types: one factory per type, each defined in
// the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsEksCluster(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsEksNodeGroup(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsEksAddon(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsEksAccessEntry(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsEksAccessPolicyAssociation(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsEksClusterData(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsEksClusterAuth(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsEksAddonVersionData(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
