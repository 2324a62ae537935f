// A name Strata lacks in a resource or data source declaration: Terraform's provider has it
// ("not supported by Strata yet", from providers/terraform_gaps.inc) or it is a typo
// ("Unsupported argument" with a did-you-mean); at the top level, inside nested blocks, and
// for the type itself. The names used are Terraform's (hashicorp/aws 5.100.0).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/config/temp_project.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

class UnsupportedArgumentsTest : public testing::TempProject {
 protected:
  // Loads main/main.yaml (the schema check runs while the stage's graph is built).
  std::string Check(const std::string& text) {
    WriteSingleStageProject();
    Write("main/main.yaml", text);
    loaded_ = LoadStage();
    return Messages();
  }
};

// An EKS cluster's required arguments: the tests add its blocks after them.
constexpr const char* kCluster =
    "resources:\n"
    "  c:\n"
    "    type: aws_eks_cluster\n"
    "    properties:\n"
    "      name: c\n"
    "      role_arn: arn:aws:iam::123456789012:role/eks\n";

TEST_F(UnsupportedArgumentsTest, ATerraformArgumentIsNotSupportedYet) {
  std::string out = Check(
      "resources:\n"
      "  site: { type: aws_s3_bucket, properties: { bucket: b, website: [{ index_document: "
      "index.html }] } }\n");
  EXPECT_EQ(out,
            "main/main.yaml:2:57: Argument not supported by Strata yet: Argument \"website\" of "
            "aws_s3_bucket is not "
            "supported by Strata yet: Terraform's provider accepts it, and Strata does not ignore "
            "an argument it cannot "
            "honour. Remove it, or open an issue asking for it.\n");
}

// Terraform lists timeouts among aws_eip's arguments; Strata takes them beside properties.
TEST_F(UnsupportedArgumentsTest, TimeoutsInsidePropertiesSayWhereTheyBelong) {
  std::string out = Check("resources:\n  ip: { type: aws_eip, properties: { timeouts: { read: 5m } } }\n");
  EXPECT_EQ(out,
            "main/main.yaml:2:38: Timeouts belong beside properties: Terraform's timeouts block is written beside "
            "properties in Strata, not inside them: move it up one level, next to type and properties (timeouts: "
            "{ create: \"30m\" }) in resource \"ip\".\n");
}

TEST_F(UnsupportedArgumentsTest, TimeoutsBesidePropertiesPass) {
  EXPECT_EQ(Check("resources:\n  ip: { type: aws_eip, timeouts: { read: 5m } }\n"), "");
}

TEST_F(UnsupportedArgumentsTest, ATypoStillSuggests) {
  std::string out = Check("resources:\n  b: { type: aws_s3_bucket, properties: { buckett: b } }\n");
  EXPECT_EQ(out,
            "main/main.yaml:2:43: Unsupported argument: An argument named \"buckett\" is not "
            "expected in resource \"b\" "
            "of type aws_s3_bucket. Did you mean \"bucket\"?\n");
}

TEST_F(UnsupportedArgumentsTest, NestedBlocksAreCheckedToo) {
  std::string out = Check(std::string(kCluster) +
                          "      vpc_config:\n"
                          "        - subnet_idz: [a]\n"
                          "      kubernetes_network_config: { elastic_load_balancing: { enabled: true } }\n"
                          "      encryption_config: [{ resources: [secrets], provider: [{ key_arm: k }] }]\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:8:11: Unsupported argument: An argument named "
                             "\"subnet_idz\" is not expected "
                             "in vpc_config in resource \"c\" of type aws_eks_cluster. Did you "
                             "mean \"subnet_ids\"?\n"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:9:36: Argument not supported by Strata yet: Argument "
                             "\"kubernetes_network_config.elastic_load_balancing\" of "
                             "aws_eks_cluster is not supported by "
                             "Strata yet: Terraform's provider accepts it,"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:10:64: Unsupported argument: An argument named "
                             "\"key_arm\" is not expected in "
                             "encryption_config.provider in resource \"c\" of type "
                             "aws_eks_cluster. Did you mean \"key_arn\"?\n"));
}

// A block computed by an expression is checked once evaluated, at the property's value, for
// each instance: its extra names are never dropped silently by the conversion.
TEST_F(UnsupportedArgumentsTest, ComputedBlocksAreCheckedWhenEvaluated) {
  WriteSingleStageProject();
  Write("main/main.yaml", std::string("locals:\n"
                                      "  vpc: { subnet_ids: [a], subnet_idz: [b] }\n"
                                      "  network: { elastic_load_balancing: [{ enabled: true }] }\n") +
                              kCluster +
                              "      vpc_config: [\"${local.vpc}\"]\n"
                              "      kubernetes_network_config: \"${[local.network]}\"\n");
  Evaluate();
  EXPECT_EQ(Messages(),
            "main/main.yaml:11:37: Argument not supported by Strata yet: Argument "
            "\"kubernetes_network_config.elastic_load_balancing\" of aws_eks_cluster is not supported by Strata yet: Terraform's "
            "provider accepts it, and Strata does not ignore an argument it cannot honour. Remove it, or open an issue asking "
            "for it.\n"
            "main/main.yaml:10:19: Unsupported argument: An argument named \"subnet_idz\" is not expected in vpc_config in "
            "resource \"c\" of type aws_eks_cluster. Did you mean \"subnet_ids\"?\n");
  ASSERT_FALSE(diags_.items().empty());
  EXPECT_EQ(diags_.items()[0].address, "aws_eks_cluster.c");
}

TEST_F(UnsupportedArgumentsTest, AValidNestedBlockPasses) {
  std::string out = Check(std::string(kCluster) +
                          "      vpc_config: [{ subnet_ids: [a], endpoint_public_access: true }]\n"
                          "      access_config: { authentication_mode: API }\n");
  EXPECT_EQ(out, "");
}

TEST_F(UnsupportedArgumentsTest, ATerraformTypeIsNotSupportedYet) {
  std::string out = Check(
      "resources:\n"
      "  d: { type: aws_sagemaker_domain, properties: { domain_name: d } }\n"
      "data:\n"
      "  g: { type: aws_eks_node_group, properties: { cluster_name: c, node_group_name: g } }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:14: Resource type not supported by Strata yet: The resource type "
                             "\"aws_sagemaker_domain\" is not supported by Strata yet: Terraform's provider has "
                             "it, Strata "
                             "does not. Remove it, or open an issue asking for it.\n"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:14: Data source type not supported by Strata yet: The data source type "
                             "\"aws_eks_node_group\" is not supported by Strata yet:"));
}

TEST_F(UnsupportedArgumentsTest, AnUnknownTypeStillSuggests) {
  std::string out = Check("resources:\n  d: { type: terraform_dta }\n");
  EXPECT_EQ(out,
            "main/main.yaml:2:14: Unknown resource type: No provider offers a resource type named "
            "\"terraform_dta\". Did "
            "you mean \"terraform_data\"?\n");
}

}  // namespace
}  // namespace strata
