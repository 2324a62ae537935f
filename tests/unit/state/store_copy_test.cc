// `state migrate`'s copy (StateStore::DumpRows / LoadRows, state/store_copy.h): a store
// copied to the other backend holds the same rows — history, journal, environments, sealed
// secrets — and goes on working there (the pending operation found, new ids of its own).

#include <gtest/gtest.h>

#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

class StoreCopyTest : public BackendTest {
 protected:
  void SetUp() override {
    // Both backends take part whichever is the source.
    if (!TestPostgresServer().unavailable.empty()) {
      GTEST_SKIP() << "SKIPPED (PostgreSQL backend): " << TestPostgresServer().unavailable;
    }
    source = Open(GetParam(), "source.db");
    target = Open(GetParam() == Backend::Sqlite ? Backend::Postgres : Backend::Sqlite, "target.db");
    ASSERT_TRUE(source && target);
  }
  std::unique_ptr<StateStore> Open(Backend backend, const std::string& name, const std::string& environment = kDefaultEnvironment) {
    UseBackend(backend);
    StoreSpec spec = Spec(dir.File(name), &env, key);
    spec.environment = environment;
    return OpenAny(spec);
  }
  // Two serials of net (a secret in each), an environment with a stage, and an apply of app
  // that stopped with an operation in flight.
  void Fill() {
    ResourceInstanceState vpc = Resource("aws_vpc.main", Value::Object({{"id", Value::String("vpc-1")},
                                                                       {"password", Value::String("pw-1").MarkSensitive()}}));
    ApplyResources(*source, "net", {vpc}, std::vector<OutputState>{{"token", Value::String("tok-9"), true}});
    ApplyResources(*source, "net", {Resource("aws_subnet.a", Value::Object({{"id", Value::String("subnet-1")}}))});
    ASSERT_TRUE(source->CreateEnvironment("staging").ok());
    auto staging = Open(GetParam(), "source.db", "staging");
    ApplyResources(*staging, "net", {Resource("aws_vpc.main", Value::Object({{"id", Value::String("vpc-s")}}))});
    auto lock = source->TryLock({"app", "apply"});
    auto cs = source->BeginChangeSet(lock->id, "app", "apply");
    ASSERT_TRUE(source->BeginOperation(*cs, {Addr("aws_instance.web"), OperationAction::Create, "aws", "tok-web"}).ok());
    ASSERT_TRUE(source->Unlock("app", lock->id).ok());  // as if its process had died
  }

  TempDir dir;
  FakeEnvironment env;
  crypto::StateKey key = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
  std::unique_ptr<StateStore> source;
  std::unique_ptr<StateStore> target;
};

TEST_P(StoreCopyTest, TheCopyHoldsTheSameRowsAndDigests) {
  Fill();
  auto dump = source->DumpRows();
  ASSERT_TRUE(dump.ok()) << dump.status().message();
  ASSERT_TRUE(target->LoadRows(*dump, {}).ok());
  auto copy = target->DumpRows();
  ASSERT_TRUE(copy.ok()) << copy.status().message();
  EXPECT_EQ(copy->tables, dump->tables);
  EXPECT_TRUE(CompareDumps(*dump, *copy).empty());
  auto stages = SummarizeStages(*copy);
  ASSERT_EQ(stages.size(), 3u);  // app, net, staging/net
  EXPECT_EQ(stages[1].key, "net");
  EXPECT_EQ(stages[1].serial, 2);
  EXPECT_EQ(stages[1].rows.at("history"), 2);
  EXPECT_EQ(stages[2].key, "staging/net");

  auto net = target->LoadStage("net");
  ASSERT_TRUE(net.ok()) << net.status().message();
  EXPECT_EQ(net->serial, 2);
  EXPECT_EQ(net->resources.size(), 2u);
  const auto* vpc = net->FindResource(Addr("aws_vpc.main"));
  ASSERT_NE(vpc, nullptr);
  EXPECT_EQ(vpc->attributes.AsMap().at("password").AsString(), "pw-1");  // opened with the same key
  EXPECT_EQ(target->LoadOutputs("net")->at("token").value.AsString(), "tok-9");
  EXPECT_EQ(target->History("net")->size(), 2u);
  EXPECT_EQ(target->ListEnvironments()->size(), 2u);
}

TEST_P(StoreCopyTest, TheCopyGoesOnWhereTheSourceStopped) {
  Fill();
  ASSERT_TRUE(target->LoadRows(*source->DumpRows(), {}).ok());
  auto lock = target->TryLock({"app", "apply"});
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  auto cs = target->BeginChangeSet(lock->id, "app", "apply");
  ASSERT_TRUE(cs.ok()) << cs.status().message();
  ASSERT_EQ(cs->pending.size(), 1u);
  EXPECT_EQ(cs->pending[0].idempotency_token, "tok-web");
  EXPECT_GT(cs->id, cs->pending[0].change_set_id);
  auto more = target->BeginOperation(*cs, {Addr("aws_instance.db"), OperationAction::Create, "aws", "tok-db"});
  ASSERT_TRUE(more.ok()) << more.status().message();
  EXPECT_GT(*more, cs->pending[0].id);
  ASSERT_TRUE(target->CompleteOperation(*cs, cs->pending[0].id, Resource("aws_instance.web")).ok());
  ASSERT_TRUE(target->CompleteOperation(*cs, *more, Resource("aws_instance.db")).ok());
  auto commit = target->CommitChangeSet(*cs, std::nullopt);
  ASSERT_TRUE(commit.ok()) << commit.status().message();
  EXPECT_EQ(target->LoadStage("app")->resources.size(), 2u);
}

TEST_P(StoreCopyTest, ATargetStageLockedByAnotherIsRefusedAndUntouched) {
  Fill();
  ApplyResources(*target, "other", {Resource("aws_vpc.x")});
  auto theirs = target->TryLock({"other", "apply"});
  ASSERT_TRUE(theirs.ok());
  auto dump = source->DumpRows();
  StateStatus refused = target->LoadRows(*dump, {});
  EXPECT_EQ(refused.code(), StateCode::LockHeld);
  EXPECT_NE(refused.message().find("the target state is in use"), std::string::npos) << refused.message();
  EXPECT_EQ(target->LoadStage("other")->resources.size(), 1u);
  // The caller's own lock is no obstacle, and the target's old state is replaced.
  ASSERT_TRUE(target->LoadRows(*dump, {theirs->id}).ok());
  EXPECT_FALSE(target->LoadStage("other")->exists);
}

STRATA_ON_EVERY_BACKEND(StoreCopyTest);

TEST(StoreCopyDigestTest, ADifferenceInOneStageIsNamed) {
  StoreDump a;
  a.tables["stages"] = {{"net", "L", "2", "1", "1"}, {"app", "L2", "1", "1", "1"}};
  a.tables["resources"] = {{"net", "aws_vpc.main", "", "managed", "aws_vpc", "aws", "created", "{}", "[]", "[]", "[]",
                            "", "0", "1", "1"}};
  StoreDump b = a;
  EXPECT_TRUE(CompareDumps(a, b).empty());
  (*b.tables["resources"][0][7]) = "{\"id\":\"x\"}";
  EXPECT_EQ(CompareDumps(a, b), std::vector<std::string>{"stage net: digest differs"});
  b.tables["resources"].clear();
  auto differences = CompareDumps(a, b);
  ASSERT_EQ(differences.size(), 2u);
  EXPECT_EQ(differences[0], "stage net: resources 1 != 0");
  b.tables["stages"].pop_back();
  EXPECT_EQ(CompareDumps(a, b).back(), "stage net: digest differs");
}

}  // namespace
}  // namespace strata::state
