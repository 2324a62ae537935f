#include "providers/aws/aws_provider.h"

#include "providers/aws/common/aws_settings.h"
#include "providers/aws/services/acm/acm_types.h"
#include "providers/aws/services/autoscaling/autoscaling_types.h"
#include "providers/aws/services/cloudwatch/cloudwatch_types.h"
#include "providers/aws/services/cognitoidp/cognitoidp_types.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/efs/efs_types.h"
#include "providers/aws/services/fsx/fsx_types.h"
#include "providers/aws/services/events/events_types.h"
#include "providers/aws/services/eks/eks_types.h"
#include "providers/aws/services/elbv2/elbv2_types.h"
#include "providers/aws/services/iam/iam_types.h"
#include "providers/aws/services/kms/kms_types.h"
#include "providers/aws/services/logs/logs_types.h"
#include "providers/aws/services/route53/route53_types.h"
#include "providers/aws/services/s3/s3_types.h"
#include "providers/aws/services/sqs/sqs_types.h"
#include "providers/aws/services/ssm/ssm_types.h"
#include "providers/aws/services/meta/meta_types.h"
#include "providers/aws/services/secretsmanager/secretsmanager_types.h"
#include "providers/aws/services/sts/sts_types.h"

namespace strata::aws {

using attrs::Error;

AwsProvider::AwsProvider(std::shared_ptr<const Environment> env)
    : env_(std::move(env)), session_(std::make_shared<AwsSession>()) {
  for (auto factory : {NewAwsVpc, NewAwsSubnet, NewAwsInternetGateway, NewAwsEip, NewAwsNatGateway,
                       NewAwsRouteTable, NewAwsRoute, NewAwsRouteTableAssociation, NewAwsSecurityGroup,
                       NewAwsSecurityGroupRule, NewAwsLaunchTemplate, NewAwsIamRole, NewAwsIamPolicy,
                       NewAwsIamRolePolicyAttachment, NewAwsIamOpenidConnectProvider,
                       NewAwsIamInstanceProfile, NewAwsEksCluster, NewAwsEksNodeGroup, NewAwsEksAddon,
                       NewAwsEksAccessEntry, NewAwsEksAccessPolicyAssociation, NewAwsAutoscalingGroup, NewAwsAutoscalingGroupTag, NewAwsSqsQueue,
                       NewAwsSqsQueuePolicy, NewAwsKmsKey, NewAwsKmsAlias, NewAwsCloudwatchEventRule,
                       NewAwsCloudwatchEventTarget, NewAwsCloudwatchLogGroup, NewAwsCloudwatchDashboard,
                       NewAwsRoute53Zone, NewAwsRoute53Record, NewAwsS3Bucket, NewAwsS3BucketVersioning, NewAwsS3BucketPublicAccessBlock,
                       NewAwsSecretsmanagerSecret, NewAwsSecretsmanagerSecretVersion,
                       NewAwsCognitoUserPool, NewAwsCognitoUserPoolDomain, NewAwsCognitoIdentityProvider,
                       NewAwsCognitoUserPoolClient, NewAwsEfsFileSystem, NewAwsEfsMountTarget, NewAwsEfsAccessPoint,
                       NewAwsFsxLustreFileSystem}) {
    Add(factory(session_));
  }
  for (auto factory : {NewAwsCallerIdentity, NewAwsRegion, NewAwsAvailabilityZones, NewAwsPartition,
                       NewAwsIamPolicyDocument, NewAwsEksClusterData, NewAwsEksClusterAuth, NewAwsEksAddonVersionData, NewAwsVpcData,
                       NewAwsSubnetsData, NewAwsSecurityGroupData, NewAwsAutoscalingGroupsData,
                       NewAwsSsmParameterData, NewAwsAmiData, NewAwsLbData, NewAwsAlbData,
                       NewAwsAcmCertificateData, NewAwsRoute53ZoneData, NewAwsSecretsmanagerSecretVersionData}) {
    Add(factory(session_));
  }
}

ResourceSchema AwsProvider::SettingsSchema() const { return AwsSettingsSchema(); }

Diagnostics AwsProvider::NotReady() const {
  if (session_->Configured()) return {};
  return Error("Provider not configured", "The aws provider was used before Configure.");
}

Diagnostics AwsProvider::Configure(const OperationContext& ctx, const Value& config) {
  AwsSettings settings;
  Diagnostics diags = ParseAwsSettings(config, *env_, settings);
  if (diags.HasErrors()) return diags;
  auto log = [ctx](const std::string& line) { ctx.Log(LogLevel::Debug, line); };
  session_->client = MakeAwsClient(settings, env_, log);
  session_->default_tags = settings.default_tags;
  return diags;
}

}  // namespace strata::aws
