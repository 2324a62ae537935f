#pragma once
// The aws provider's EC2 resource and data source types: one factory per type, each defined in
// the type's own file here. aws_provider.cc registers them.

#include <memory>

#include "providers/aws/common/aws_resource_type.h"

namespace strata::aws {

std::unique_ptr<ResourceType> NewAwsVpc(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsSubnet(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsInternetGateway(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsEip(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsNatGateway(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsRouteTable(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsRoute(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsRouteTableAssociation(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsSecurityGroup(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsSecurityGroupRule(std::shared_ptr<AwsSession> session);
std::unique_ptr<ResourceType> NewAwsLaunchTemplate(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsAvailabilityZones(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsAmiData(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsVpcData(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsSubnetsData(std::shared_ptr<AwsSession> session);
std::unique_ptr<DataSourceType> NewAwsSecurityGroupData(std::shared_ptr<AwsSession> session);

}  // namespace strata::aws
