// Who is admin of a cluster: the creator EKS recorded (as the IAM principal, so every
// session of a creating role), unless bootstrapClusterCreatorAdminPermissions is false;
// and the sandbox's keys as the cluster endpoint looks them up.

#include <gtest/gtest.h>

#include "sandbox/caller_identity.h"
#include "sandbox/kubernetes/auth/cluster_access.h"
#include "tests/unit/k8s_auth/k8s_auth_test_support.h"

namespace strata::sandbox::k8s_auth {
namespace {

const std::string kAccount = "111122223333";
const std::string kRoleSession = "arn:aws:sts::111122223333:assumed-role/deployer/ci-42";

TEST(ClusterAccessTest, LoadsTheCreatorAndTheBootstrapFlagEksRecorded) {
  auto world = World::Open("");
  testing::PutCluster(*world, testing::ClusterDoc("demo", kRoleSession, false, "eu-west-1"));
  std::optional<ClusterAccess> access = LoadClusterAccess(*world, "demo", kAccount);
  ASSERT_TRUE(access);
  EXPECT_EQ(access->region, "eu-west-1");
  EXPECT_EQ(access->creator_arn, kRoleSession);
  EXPECT_FALSE(access->creator_is_admin);
  EXPECT_FALSE(LoadClusterAccess(*world, "other", kAccount));
}

TEST(ClusterAccessTest, ClustersMadeBeforeCreatorsWereRecordedBelongToTheSandboxUser) {
  auto world = World::Open("");
  testing::PutCluster(*world, testing::ClusterDoc("old", ""));
  EXPECT_EQ(LoadClusterAccess(*world, "old", kAccount)->creator_arn, "arn:aws:iam::111122223333:user/sandbox");
}

TEST(ClusterAccessTest, CanonicalArnOfAnAssumedRoleIsTheRole) {
  EXPECT_EQ(CanonicalArn(kRoleSession), "arn:aws:iam::111122223333:role/deployer");
  EXPECT_EQ(CanonicalArn("arn:aws-cn:sts::123:assumed-role/r/s"), "arn:aws-cn:iam::123:role/r");
  EXPECT_EQ(CanonicalArn("arn:aws:iam::111122223333:user/sandbox"), "arn:aws:iam::111122223333:user/sandbox");
}

TEST(ClusterAccessTest, TheCreatorIsAdminAndAnyoneElseOnlyAuthenticated) {
  ClusterAccess cluster{"demo", "us-east-1", kRoleSession, true, {}};
  KubeUser creator = KubeUserFor("arn:aws:sts::111122223333:assumed-role/deployer/laptop", "AROAX:laptop", kAccount,
                                 cluster);
  EXPECT_TRUE(creator.IsAdmin());  // another session of the creating role
  EXPECT_EQ(creator.name, "arn:aws:sts::111122223333:assumed-role/deployer/laptop");
  EXPECT_EQ(creator.uid, "aws-iam-authenticator:111122223333:AROAX:laptop");
  KubeUser other = KubeUserFor("arn:aws:iam::111122223333:user/sandbox", "AIDA", kAccount, cluster);
  EXPECT_FALSE(other.IsAdmin());
  EXPECT_EQ(other.groups, std::vector<std::string>{"system:authenticated"});
  cluster.creator_is_admin = false;
  EXPECT_FALSE(KubeUserFor(kRoleSession, "AROAX:ci-42", kAccount, cluster).IsAdmin());
}

TEST(ClusterAccessTest, AnAccessEntryNamesTheUserAndItsGroupsAndTheAdminPolicyMakesAnAdmin) {
  ClusterAccess cluster{"demo", "us-east-1", "arn:aws:iam::111122223333:user/sandbox", true, {}};
  cluster.entries.push_back({"arn:aws:iam::111122223333:role/deployer",
                             "arn:aws:sts::111122223333:assumed-role/deployer/{{SessionName}}", {"deployers"}, false});
  KubeUser mapped = KubeUserFor(kRoleSession, "AROAX:ci-42", kAccount, cluster);
  EXPECT_EQ(mapped.name, kRoleSession);  // {{SessionName}} is the caller's session
  EXPECT_EQ(mapped.groups, (std::vector<std::string>{"deployers", "system:authenticated"}));
  EXPECT_FALSE(mapped.IsAdmin()) << "groups grant nothing without RBAC";
  cluster.entries.back().cluster_admin = true;
  EXPECT_TRUE(KubeUserFor(kRoleSession, "AROAX:ci-42", kAccount, cluster).IsAdmin());
  EXPECT_FALSE(KubeUserFor("arn:aws:iam::111122223333:role/other", "AROAY", kAccount, cluster).IsAdmin());
}

TEST(CallerIdentityTest, TheSandboxKeyIsTheSandboxUser) {
  auto world = World::Open("");
  SandboxSettings settings;
  std::optional<AccessKeyRecord> key = LookUpAccessKey(*world, settings, settings.access_key);
  ASSERT_TRUE(key);
  EXPECT_EQ(key->secret_access_key, settings.secret_key);
  EXPECT_EQ(key->identity.arn, "arn:aws:iam::111122223333:user/sandbox");
  EXPECT_EQ(key->identity.user_id.substr(0, 4), "AIDA");
  EXPECT_EQ(key->identity.user_id, SandboxUserIdentity(settings.account_id).user_id);  // stable
  EXPECT_FALSE(LookUpAccessKey(*world, settings, "AKIAUNKNOWN"));
}

TEST(CallerIdentityTest, StsCredentialsAreTheSessionTheyWereIssuedFor) {
  auto world = World::Open("");
  SandboxSettings settings;
  world->Put(kStsCredentialsKind, "ASIAEXAMPLE",
             {{"AccessKeyId", "ASIAEXAMPLE"},
              {"SecretAccessKey", "secret"},
              {"SessionToken", "token"},
              {"Expiration", "2026-01-01T01:00:00.000Z"},
              {"Arn", kRoleSession},
              {"UserId", "AROAEXAMPLE:ci-42"}});
  std::optional<AccessKeyRecord> key = LookUpAccessKey(*world, settings, "ASIAEXAMPLE");
  ASSERT_TRUE(key);
  EXPECT_EQ(key->secret_access_key, "secret");
  EXPECT_EQ(key->session_token, "token");
  ASSERT_TRUE(key->expiration);
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*key->expiration), 1767229200);
  EXPECT_EQ(key->identity.arn, kRoleSession);
  EXPECT_EQ(key->identity.user_id, "AROAEXAMPLE:ci-42");
  EXPECT_EQ(key->identity.account, "111122223333");
}

}  // namespace
}  // namespace strata::sandbox::k8s_auth
