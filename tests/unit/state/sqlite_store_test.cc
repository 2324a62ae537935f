#include <gtest/gtest.h>

#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

class SqliteStoreTest : public ::testing::Test {
 protected:
  TempDir dir;
  FakeEnvironment env;
  std::unique_ptr<SqliteStateStore> store = OpenOrDie(Options(dir.File("state.db"), &env));
};

TEST_F(SqliteStoreTest, NeverWrittenStageIsEmptyNotAnError) {
  auto stage = store->LoadStage("eks", {});
  ASSERT_TRUE(stage.ok());
  EXPECT_FALSE(stage->exists);
  EXPECT_EQ(stage->serial, 0);
  EXPECT_TRUE(stage->resources.empty());
}

TEST_F(SqliteStoreTest, CommitAssignsLineageAndIncrementsSerialOncePerChangeSet) {
  Value attrs = Value::Object({{"id", Value::String("vpc-1")}, {"cidr", Value::String("10.0.0.0/16")}});
  EXPECT_EQ(ApplyResources(*store, "eks", {Resource("aws_vpc.main", attrs), Resource("aws_subnet.a[0]")}), 1);
  auto first = store->LoadStage("eks", {});
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->exists);
  EXPECT_EQ(first->lineage.size(), 36u);
  EXPECT_EQ(first->serial, 1);
  ASSERT_EQ(first->resources.size(), 2u);
  const auto* vpc = first->FindResource(Addr("aws_vpc.main"));
  ASSERT_NE(vpc, nullptr);
  EXPECT_TRUE(vpc->attributes.Equals(attrs));
  EXPECT_EQ(vpc->status, ResourceStatus::Created);
  EXPECT_EQ(vpc->provider, "aws");
  EXPECT_EQ(vpc->idempotency_token, "tok-aws_vpc.main");
  EXPECT_EQ(vpc->created_at, env.now);

  env.now += 1000;
  EXPECT_EQ(ApplyResources(*store, "eks", {Resource("aws_vpc.other")}), 2);
  auto second = store->LoadStage("eks", {});
  EXPECT_EQ(second->lineage, first->lineage);  // the lineage is kept
  EXPECT_EQ(second->serial, 2);
}

TEST_F(SqliteStoreTest, EmptyChangeSetKeepsTheSerial) {
  ApplyResources(*store, "eks", {Resource("aws_vpc.main")});
  auto lock = store->TryLock({"eks", "apply"});
  auto cs = store->BeginChangeSet(lock->id, "eks", "apply");
  auto commit = store->CommitChangeSet(*cs, std::nullopt);
  ASSERT_TRUE(commit.ok());
  EXPECT_FALSE(commit->changed);
  EXPECT_EQ(commit->serial, 1);
}

TEST_F(SqliteStoreTest, KeepsAllResourceFields) {
  ResourceInstanceState r = Resource("module.net.data.aws_region.current", Value::Object({{"name", Value::String("us-west-2")}}));
  r.addr.resource.mode = ResourceMode::Data;
  r.dependencies = {"aws_vpc.main", "module.net.aws_subnet.a[\"x\"]"};
  r.schema_version = 3;
  r.status = ResourceStatus::Tainted;
  ApplyResources(*store, "eks", {r});
  auto stage = store->LoadStage("eks", {});
  const auto* got = stage->FindResource(r.addr);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->addr.resource.mode, ResourceMode::Data);
  EXPECT_EQ(got->addr.module.ToString(), "module.net");
  EXPECT_EQ(got->dependencies, r.dependencies);
  EXPECT_EQ(got->schema_version, 3);
  EXPECT_EQ(got->status, ResourceStatus::Tainted);
}

TEST_F(SqliteStoreTest, OutputsAndCrossStageErrors) {
  auto missing = store->LoadOutputs("eks");
  EXPECT_EQ(missing.status().code(), StateCode::NotFound);
  EXPECT_NE(missing.status().message().find("strata apply eks"), std::string::npos);

  ApplyResources(*store, "eks", {Resource("aws_vpc.main")},
                 std::vector<OutputState>{{"cluster_name", Value::String("prod"), false},
                                          {"kubeconfig", Value::String("apiVersion: v1"), true}});
  auto outputs = store->LoadOutputs("eks");
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_EQ(outputs->at("cluster_name").value.AsString(), "prod");
  EXPECT_FALSE(outputs->at("cluster_name").value.IsSensitive());
  EXPECT_TRUE(outputs->at("kubeconfig").sensitive);
  EXPECT_TRUE(outputs->at("kubeconfig").value.IsSensitive());
  EXPECT_EQ(outputs->at("kubeconfig").value.AsString(), "apiVersion: v1");

  // Same outputs again: no change, no new serial.
  auto lock = store->TryLock({"eks", "apply"});
  auto cs = store->BeginChangeSet(lock->id, "eks", "apply");
  auto commit = store->CommitChangeSet(*cs, std::vector<OutputState>{{"cluster_name", Value::String("prod"), false},
                                                                     {"kubeconfig", Value::String("apiVersion: v1"), true}});
  ASSERT_TRUE(commit.ok());
  EXPECT_FALSE(commit->changed);
}

TEST_F(SqliteStoreTest, ListStages) {
  ApplyResources(*store, "eks", {Resource("aws_vpc.main"), Resource("aws_vpc.b")});
  ApplyResources(*store, "addons", {Resource("aws_iam_role.r")});
  auto stages = store->ListStages();
  ASSERT_TRUE(stages.ok());
  ASSERT_EQ(stages->size(), 2u);
  EXPECT_EQ((*stages)[0].name, "addons");
  EXPECT_EQ((*stages)[1].name, "eks");
  EXPECT_EQ((*stages)[1].resource_count, 2);
  EXPECT_EQ((*stages)[1].serial, 1);
}

TEST_F(SqliteStoreTest, SecondStoreOnTheSameFileSeesCommits) {
  ApplyResources(*store, "eks", {Resource("aws_vpc.main")});
  auto other = OpenOrDie(Options(dir.File("state.db"), &env));
  auto stage = other->LoadStage("eks", {});
  EXPECT_EQ(stage->resources.size(), 1u);
}

}  // namespace
}  // namespace strata::state

#include "state/stage_outputs.h"

namespace strata::state {
namespace {

using namespace testing;

TEST(StageOutputsTest, CrossStageLookupSaysWhichStageToApply) {
  TempDir dir;
  FakeEnvironment env;
  auto store = OpenOrDie(Options(dir.File("state.db"), &env));
  auto never = LookupStageOutput(*store, "eks", "cluster_name");
  EXPECT_EQ(never.status().code(), StateCode::NotFound);
  EXPECT_NE(never.status().message().find("run `strata apply eks` first"), std::string::npos);

  ApplyResources(*store, "eks", {Resource("aws_vpc.main")},
                 std::vector<OutputState>{{"cluster_name", Value::String("prod"), false},
                                          {"vpc_id", Value::String("vpc-1"), false}});
  EXPECT_EQ(LookupStageOutput(*store, "eks", "cluster_name")->value.AsString(), "prod");
  auto missing = LookupStageOutput(*store, "eks", "kubeconfig");
  EXPECT_EQ(missing.status().code(), StateCode::NotFound);
  EXPECT_NE(missing.status().message().find("(it has: cluster_name, vpc_id)"), std::string::npos);
  EXPECT_NE(missing.status().message().find("strata apply eks"), std::string::npos);
}

}  // namespace
}  // namespace strata::state
