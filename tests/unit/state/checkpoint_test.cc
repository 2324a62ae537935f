#include <gtest/gtest.h>

#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

class CheckpointTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    lock = *store->TryLock({"eks", "apply"});
    cs = *store->BeginChangeSet(lock.id, "eks", "apply");
  }
  ResourceStatus StatusOf(const std::string& address) {
    auto stage = store->LoadStage("eks", {});
    const auto* r = stage->FindResource(Addr(address));
    EXPECT_NE(r, nullptr) << address;
    return r ? r->status : ResourceStatus::Created;
  }
  bool Exists(const std::string& address) { return store->LoadStage("eks", {})->FindResource(Addr(address)) != nullptr; }

  TempDir dir;
  FakeEnvironment env;
  std::unique_ptr<StateStore> store = OpenAny(Spec(dir.File("state.db"), &env));
  LockInfo lock;
  ChangeSet cs;
};

TEST_P(CheckpointTest, CreateIsPendingWithItsTokenUntilCompleted) {
  auto op = store->BeginOperation(cs, {Addr("aws_vpc.main"), OperationAction::Create, "aws", "token-1"});
  ASSERT_TRUE(op.ok()) << op.status().message();
  EXPECT_EQ(StatusOf("aws_vpc.main"), ResourceStatus::PendingCreate);
  auto pending = store->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ((*pending)[0].idempotency_token, "token-1");
  EXPECT_EQ((*pending)[0].action, OperationAction::Create);
  EXPECT_EQ((*pending)[0].addr.ToString(), "aws_vpc.main");

  ASSERT_TRUE(store->CompleteOperation(cs, *op, Resource("aws_vpc.main", Value::Object({{"id", Value::String("vpc-1")}}))).ok());
  EXPECT_EQ(StatusOf("aws_vpc.main"), ResourceStatus::Created);
  EXPECT_TRUE(store->PendingOperations("eks")->empty());
  EXPECT_EQ(store->CompleteOperation(cs, *op, std::nullopt).code(), StateCode::InvalidArgument);  // already done
}

TEST_P(CheckpointTest, FailedCreateRemovesThePlaceholder) {
  auto op = store->BeginOperation(cs, {Addr("aws_vpc.main"), OperationAction::Create, "aws", "t"});
  ASSERT_TRUE(store->FailOperation(cs, *op, "quota exceeded").ok());
  EXPECT_FALSE(Exists("aws_vpc.main"));
  EXPECT_TRUE(store->PendingOperations("eks")->empty());
}

TEST_P(CheckpointTest, FailedCreateWithPartialStateKeepsItTainted) {
  auto op = store->BeginOperation(cs, {Addr("aws_instance.x"), OperationAction::Create, "aws", "t"});
  ResourceInstanceState partial = Resource("aws_instance.x", Value::Object({{"id", Value::String("i-1")}}));
  partial.status = ResourceStatus::Tainted;
  ASSERT_TRUE(store->FailOperation(cs, *op, "boot failed", partial).ok());
  EXPECT_EQ(StatusOf("aws_instance.x"), ResourceStatus::Tainted);
}

TEST_P(CheckpointTest, UpdateAndDeleteKeepThePriorStateUntilAnswered) {
  Value v1 = Value::Object({{"size", Value::Number(1)}});
  auto create = store->BeginOperation(cs, {Addr("aws_db.main"), OperationAction::Create, "aws", "c"});
  ASSERT_TRUE(store->CompleteOperation(cs, *create, Resource("aws_db.main", v1)).ok());

  auto update = store->BeginOperation(cs, {Addr("aws_db.main"), OperationAction::Update, "aws", "u"});
  auto mid = store->LoadStage("eks", {});
  EXPECT_EQ(mid->FindResource(Addr("aws_db.main"))->status, ResourceStatus::PendingUpdate);
  EXPECT_TRUE(mid->FindResource(Addr("aws_db.main"))->attributes.Equals(v1));  // prior attributes kept
  EXPECT_EQ(mid->FindResource(Addr("aws_db.main"))->idempotency_token, "u");
  ASSERT_TRUE(store->FailOperation(cs, *update, "throttled").ok());
  EXPECT_EQ(StatusOf("aws_db.main"), ResourceStatus::Created);

  auto del = store->BeginOperation(cs, {Addr("aws_db.main"), OperationAction::Delete, "aws", "d"});
  EXPECT_EQ(StatusOf("aws_db.main"), ResourceStatus::PendingDelete);
  ASSERT_TRUE(store->CompleteOperation(cs, *del, std::nullopt).ok());
  EXPECT_FALSE(Exists("aws_db.main"));

  EXPECT_EQ(store->BeginOperation(cs, {Addr("aws_db.gone"), OperationAction::Update, "aws", "x"}).status().code(),
            StateCode::NotFound);
}

TEST_P(CheckpointTest, CommittedChangeSetIsClosed) {
  ASSERT_TRUE(store->CommitChangeSet(cs, std::nullopt).ok());
  EXPECT_EQ(store->BeginOperation(cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "t"}).status().code(),
            StateCode::InvalidArgument);
}

// A process dies between BeginOperation and the provider's answer: the next holder sees the
// operation pending with its token, resolves it, and the next commit covers everything.
TEST_P(CheckpointTest, InterruptedChangeSetIsReportedAndAbsorbed) {
  auto done = store->BeginOperation(cs, {Addr("aws_vpc.main"), OperationAction::Create, "aws", "t1"});
  ASSERT_TRUE(store->CompleteOperation(cs, *done, Resource("aws_vpc.main")).ok());
  auto inflight = store->BeginOperation(cs, {Addr("aws_subnet.a"), OperationAction::Create, "aws", "t2"});
  ASSERT_TRUE(inflight.ok());
  store.reset();  // the process is gone: no commit, no unlock

  env.liveness = ProcessLiveness::Gone;
  store = OpenAny(Spec(dir.File("state.db"), &env));
  auto stale = store->CurrentLock("eks");
  ASSERT_TRUE(stale->has_value());
  EXPECT_TRUE((*stale)->stale);
  ASSERT_TRUE(store->ForceUnlock((*stale)->id).ok());

  auto stage = store->LoadStage("eks", {});
  EXPECT_EQ(stage->serial, 0);  // nothing committed yet...
  EXPECT_NE(stage->FindResource(Addr("aws_vpc.main")), nullptr);  // ...but nothing lost

  env.liveness = ProcessLiveness::Alive;
  auto lock2 = store->TryLock({"eks", "apply"});
  auto cs2 = store->BeginChangeSet(lock2->id, "eks", "apply");
  ASSERT_TRUE(cs2.ok());
  ASSERT_EQ(cs2->interrupted.size(), 1u);
  EXPECT_EQ(cs2->interrupted[0], cs.id);
  ASSERT_EQ(cs2->pending.size(), 1u);
  EXPECT_EQ(cs2->pending[0].id, *inflight);
  EXPECT_EQ(cs2->pending[0].idempotency_token, "t2");

  // Reconciled: the provider found the subnet by its token.
  ASSERT_TRUE(store->CompleteOperation(*cs2, *inflight, Resource("aws_subnet.a")).ok());
  auto commit = store->CommitChangeSet(*cs2, std::nullopt);
  ASSERT_TRUE(commit.ok());
  EXPECT_TRUE(commit->changed);
  EXPECT_EQ(commit->serial, 1);
  EXPECT_EQ(store->LoadStage("eks", {})->resources.size(), 2u);
}


// create_before_destroy: the old object steps aside under a key, the replacement is created
// in its place, and the deposed object's delete is journaled like any other.
TEST_P(CheckpointTest, DeposedObjectIsKeptApartAndItsDeleteIsJournaled) {
  auto create = store->BeginOperation(cs, {Addr("aws_launch_template.lt"), OperationAction::Create, "aws", "c1"});
  ASSERT_TRUE(store->CompleteOperation(cs, *create, Resource("aws_launch_template.lt", Value::Object({{"id", Value::String("lt-1")}}))).ok());
  ASSERT_TRUE(store->DeposeResource(cs, Addr("aws_launch_template.lt"), "0a1b2c3d").ok());
  EXPECT_EQ(store->DeposeResource(cs, Addr("aws_launch_template.lt"), "ffffffff").code(), StateCode::NotFound)
      << "nothing current left to depose";
  auto stage = store->LoadStage("eks", {});
  EXPECT_EQ(stage->FindResource(Addr("aws_launch_template.lt")), nullptr) << "a deposed object is not the current one";
  ASSERT_EQ(stage->deposed.size(), 1u);
  EXPECT_EQ(stage->deposed[0].deposed, "0a1b2c3d");
  EXPECT_EQ(stage->deposed[0].attributes.AsMap().at("id").AsString(), "lt-1");

  auto replacement = store->BeginOperation(cs, {Addr("aws_launch_template.lt"), OperationAction::Create, "aws", "c2"});
  ASSERT_TRUE(replacement.ok()) << replacement.status().message();
  ASSERT_TRUE(store->CompleteOperation(cs, *replacement, Resource("aws_launch_template.lt", Value::Object({{"id", Value::String("lt-2")}}))).ok());
  EXPECT_EQ(store->RestoreDeposed(cs, Addr("aws_launch_template.lt"), "0a1b2c3d").code(), StateCode::InvalidArgument)
      << "the instance has a current object again";

  auto del = store->BeginOperation(cs, {Addr("aws_launch_template.lt"), OperationAction::Delete, "aws", "", "0a1b2c3d"});
  ASSERT_TRUE(del.ok()) << del.status().message();
  auto pending = store->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ((*pending)[0].deposed, "0a1b2c3d");
  EXPECT_EQ(store->LoadStage("eks", {})->deposed[0].status, ResourceStatus::PendingDelete);
  EXPECT_EQ(StatusOf("aws_launch_template.lt"), ResourceStatus::Created) << "the current object is untouched";
  ASSERT_TRUE(store->CompleteOperation(cs, *del, std::nullopt).ok());
  stage = store->LoadStage("eks", {});
  EXPECT_TRUE(stage->deposed.empty());
  EXPECT_EQ(stage->FindResource(Addr("aws_launch_template.lt"))->attributes.AsMap().at("id").AsString(), "lt-2");
  EXPECT_EQ(store->BeginOperation(cs, {Addr("aws_launch_template.lt"), OperationAction::Delete, "aws", "", "0a1b2c3d"})
                .status()
                .code(),
            StateCode::NotFound);
}

TEST_P(CheckpointTest, DeposedObjectComesBackWhenItsReplacementFailedCleanly) {
  auto create = store->BeginOperation(cs, {Addr("aws_instance.x"), OperationAction::Create, "aws", "c1"});
  ASSERT_TRUE(store->CompleteOperation(cs, *create, Resource("aws_instance.x", Value::Object({{"id", Value::String("i-1")}}))).ok());
  ASSERT_TRUE(store->DeposeResource(cs, Addr("aws_instance.x"), "00000001").ok());
  auto replacement = store->BeginOperation(cs, {Addr("aws_instance.x"), OperationAction::Create, "aws", "c2"});
  ASSERT_TRUE(store->FailOperation(cs, *replacement, "quota exceeded").ok());
  ASSERT_TRUE(store->RestoreDeposed(cs, Addr("aws_instance.x"), "00000001").ok());
  auto stage = store->LoadStage("eks", {});
  EXPECT_TRUE(stage->deposed.empty());
  EXPECT_EQ(stage->FindResource(Addr("aws_instance.x"))->attributes.AsMap().at("id").AsString(), "i-1");
  EXPECT_EQ(store->RestoreDeposed(cs, Addr("aws_instance.x"), "00000001").code(), StateCode::InvalidArgument);
}

TEST_P(CheckpointTest, DeposedObjectsSurviveCommitHistoryAndRollback) {
  auto create = store->BeginOperation(cs, {Addr("aws_instance.x"), OperationAction::Create, "aws", "c1"});
  ASSERT_TRUE(store->CompleteOperation(cs, *create, Resource("aws_instance.x", Value::Object({{"id", Value::String("i-1")}}))).ok());
  ASSERT_TRUE(store->DeposeResource(cs, Addr("aws_instance.x"), "00000002").ok());
  auto committed = store->CommitChangeSet(cs, std::nullopt);
  ASSERT_TRUE(committed.ok());
  auto snapshot = store->LoadSnapshot("eks", committed->serial, {});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().message();
  ASSERT_EQ(snapshot->deposed.size(), 1u);
  EXPECT_EQ(snapshot->deposed[0].deposed, "00000002");
  EXPECT_TRUE(snapshot->resources.empty());
}

class RenameResourceTest : public BackendTest {};

// A moved entry applied in an environment other than `default` (whose stages are keyed
// "ENV/STAGE") renames the instance; it once looked under the bare stage name.
TEST_P(RenameResourceTest, RenamesInANamedEnvironmentWithItsDeposedObjects) {
  TempDir dir;
  FakeEnvironment env;
  auto store = OpenAny(Spec(dir.File("state.db"), &env));
  ASSERT_TRUE(store->CreateEnvironment("prod").ok());
  StoreSpec prod_options = Spec(dir.File("state.db"), &env);
  prod_options.environment = "prod";
  auto prod = OpenAny(prod_options);
  auto lock = *prod->TryLock({"eks", "apply"});
  auto cs = *prod->BeginChangeSet(lock.id, "eks", "apply");
  for (const char* id : {"i-1", "i-2"}) {
    auto op = prod->BeginOperation(cs, {Addr("aws_instance.old"), OperationAction::Create, "aws", id});
    ASSERT_TRUE(prod->CompleteOperation(cs, *op, Resource("aws_instance.old", Value::Object({{"id", Value::String(id)}}))).ok());
    if (std::string(id) == "i-1") {
      ASSERT_TRUE(prod->DeposeResource(cs, Addr("aws_instance.old"), "0000000a").ok());
    }
  }
  auto renamed = prod->RenameResource(cs, Addr("aws_instance.old"), Addr("aws_instance.new"));
  ASSERT_TRUE(renamed.ok()) << renamed.message();
  auto stage = prod->LoadStage("eks", {});
  ASSERT_NE(stage->FindResource(Addr("aws_instance.new")), nullptr);
  ASSERT_EQ(stage->deposed.size(), 1u);
  EXPECT_EQ(stage->deposed[0].addr.ToString(), "aws_instance.new");
}

STRATA_ON_EVERY_BACKEND(CheckpointTest);
STRATA_ON_EVERY_BACKEND(RenameResourceTest);

}  // namespace
}  // namespace strata::state
