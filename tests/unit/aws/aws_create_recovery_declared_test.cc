// Every managed type of the aws provider declares how an interrupted create of it is
// recovered (ResourceSchema::create_recovery, from ResourceType::Recovery()): Unspecified
// would let a kill -9 during an apply leave a second object behind. The table is the one
// the README gives; a new type must be added to it with its mechanism.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "providers/aws/aws_provider.h"

namespace strata::aws {
namespace {

const std::map<std::string, CreateRecovery>& Declared() {
  static const std::map<std::string, CreateRecovery> table = {
      {"aws_vpc", CreateRecovery::CreateTag},
      {"aws_subnet", CreateRecovery::CreateTag},
      {"aws_internet_gateway", CreateRecovery::CreateTag},
      {"aws_eip", CreateRecovery::CreateTag},
      {"aws_nat_gateway", CreateRecovery::ClientToken},
      {"aws_route_table", CreateRecovery::CreateTag},
      {"aws_route", CreateRecovery::NaturalKey},
      {"aws_route_table_association", CreateRecovery::NaturalKey},
      {"aws_security_group", CreateRecovery::CreateTag},
      {"aws_security_group_rule", CreateRecovery::NaturalKey},
      {"aws_launch_template", CreateRecovery::ClientToken},
      {"aws_iam_role", CreateRecovery::NaturalKey},
      {"aws_iam_policy", CreateRecovery::NaturalKey},
      {"aws_iam_role_policy_attachment", CreateRecovery::NaturalKey},
      {"aws_iam_openid_connect_provider", CreateRecovery::NaturalKey},
      {"aws_iam_instance_profile", CreateRecovery::NaturalKey},
      {"aws_eks_cluster", CreateRecovery::ClientToken},
      {"aws_eks_node_group", CreateRecovery::ClientToken},
      {"aws_eks_addon", CreateRecovery::ClientToken},
      {"aws_eks_access_entry", CreateRecovery::ClientToken},
      {"aws_eks_access_policy_association", CreateRecovery::NaturalKey},
      {"aws_autoscaling_group", CreateRecovery::NaturalKey},
      {"aws_autoscaling_group_tag", CreateRecovery::NaturalKey},
      {"aws_sqs_queue", CreateRecovery::NaturalKey},
      {"aws_sqs_queue_policy", CreateRecovery::NaturalKey},
      {"aws_kms_key", CreateRecovery::CreateTag},
      {"aws_kms_alias", CreateRecovery::NaturalKey},
      {"aws_secretsmanager_secret", CreateRecovery::CreateTag},
      {"aws_secretsmanager_secret_version", CreateRecovery::ClientToken},
      {"aws_cognito_user_pool", CreateRecovery::CreateTag},
      {"aws_cognito_user_pool_domain", CreateRecovery::NaturalKey},
      {"aws_cognito_identity_provider", CreateRecovery::NaturalKey},
      {"aws_cognito_user_pool_client", CreateRecovery::NaturalKey},
      {"aws_cloudwatch_event_rule", CreateRecovery::NaturalKey},
      {"aws_cloudwatch_event_target", CreateRecovery::NaturalKey},
      {"aws_cloudwatch_log_group", CreateRecovery::NaturalKey},
      {"aws_cloudwatch_dashboard", CreateRecovery::NaturalKey},
      {"aws_route53_zone", CreateRecovery::ClientToken},
      {"aws_route53_record", CreateRecovery::NaturalKey},
      {"aws_s3_bucket", CreateRecovery::NaturalKey},
      {"aws_s3_bucket_versioning", CreateRecovery::NaturalKey},
      {"aws_s3_bucket_public_access_block", CreateRecovery::NaturalKey},
      {"aws_efs_file_system", CreateRecovery::ClientToken},
      {"aws_efs_mount_target", CreateRecovery::NaturalKey},
      {"aws_efs_access_point", CreateRecovery::ClientToken},
      {"aws_fsx_lustre_file_system", CreateRecovery::ClientToken},
  };
  return table;
}

TEST(AwsCreateRecovery, EveryManagedTypeDeclaresItsMechanism) {
  AwsProvider provider;
  ProviderSchema schema = provider.Schema();
  ASSERT_FALSE(schema.resources.empty());
  for (const ResourceSchema& type : schema.resources) {
    if (type.mode != ResourceMode::Managed) continue;
    EXPECT_NE(type.create_recovery, CreateRecovery::Unspecified) << type.type << " declares no create recovery";
    auto it = Declared().find(type.type);
    if (it == Declared().end()) {
      ADD_FAILURE() << type.type << " is missing from the table (and from the README's)";
      continue;
    }
    EXPECT_EQ(CreateRecoveryName(type.create_recovery), std::string(CreateRecoveryName(it->second))) << type.type;
  }
  EXPECT_EQ(schema.resources.size(), Declared().size()) << "a type of the table is no longer registered";
}

}  // namespace
}  // namespace strata::aws
