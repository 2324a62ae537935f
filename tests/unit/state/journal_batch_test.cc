// StateStore::WriteJournal: several journal writes in one durable step, each with exactly
// the effect and result of its own call.

#include <gtest/gtest.h>

#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

JournalEntry BeginEntry(const std::string& address, OperationAction action, const std::string& token) {
  JournalEntry e;
  e.request = {Addr(address), action, "aws", token};
  return e;
}

JournalEntry CompleteEntry(int64_t id, std::optional<ResourceInstanceState> state) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::Complete;
  e.operation_id = id;
  e.state = std::move(state);
  return e;
}

JournalEntry FailEntry(int64_t id, const std::string& error) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::Fail;
  e.operation_id = id;
  e.error = error;
  return e;
}

class JournalBatchTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    lock = *store->TryLock({"eks", "apply"});
    cs = *store->BeginChangeSet(lock.id, "eks", "apply");
  }

  TempDir dir;
  FakeEnvironment env;
  std::unique_ptr<StateStore> store = OpenAny(Spec(dir.File("state.db"), &env));
  LockInfo lock;
  ChangeSet cs;
};

TEST_P(JournalBatchTest, EachEntryHasTheEffectOfItsOwnCallAndARefusedOneLeavesTheRest) {
  auto first = store->BeginOperation(cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "token-a"});
  auto second = store->BeginOperation(cs, {Addr("aws_vpc.b"), OperationAction::Create, "aws", "token-b"});
  ASSERT_TRUE(first.ok() && second.ok());

  std::vector<JournalEntry> entries;
  entries.push_back(CompleteEntry(*first, Resource("aws_vpc.a", Value::Object({{"id", Value::String("vpc-a")}}))));
  entries.push_back(BeginEntry("aws_vpc.missing", OperationAction::Update, "t"));  // not in state: refused
  entries.push_back(FailEntry(*second, "quota exceeded"));
  entries.push_back(BeginEntry("aws_vpc.c", OperationAction::Create, "token-c"));
  entries.push_back(CompleteEntry(*first, std::nullopt));  // already completed above: refused
  std::vector<StateResult<int64_t>> results = store->WriteJournal(cs, entries);

  ASSERT_EQ(results.size(), entries.size());
  EXPECT_TRUE(results[0].ok());
  EXPECT_EQ(results[1].status().code(), StateCode::NotFound);
  EXPECT_TRUE(results[2].ok());
  ASSERT_TRUE(results[3].ok());
  EXPECT_GT(*results[3], *second);
  EXPECT_EQ(results[4].status().code(), StateCode::InvalidArgument);

  auto stage = store->LoadStage("eks", {});
  ASSERT_NE(stage->FindResource(Addr("aws_vpc.a")), nullptr);
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.a"))->status, ResourceStatus::Created);  // the refused entry undid nothing
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.b")), nullptr);                          // failed create: no placeholder
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.missing")), nullptr);
  auto pending = store->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ((*pending)[0].addr.ToString(), "aws_vpc.c");
  EXPECT_EQ((*pending)[0].idempotency_token, "token-c");
}

TEST_P(JournalBatchTest, AnEntrySeesTheWritesOfTheEntriesBeforeItInTheSameBatch) {
  // The update needs an object in the state: only the create before it in the batch made one.
  std::vector<JournalEntry> entries;
  entries.push_back(BeginEntry("aws_vpc.x", OperationAction::Create, "token-create"));
  entries.push_back(BeginEntry("aws_vpc.x", OperationAction::Update, "token-update"));
  std::vector<StateResult<int64_t>> results = store->WriteJournal(cs, entries);

  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[0].ok()) << results[0].status().message();
  ASSERT_TRUE(results[1].ok()) << results[1].status().message();
  EXPECT_GT(*results[1], *results[0]);
  auto pending = store->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 2u);
  EXPECT_EQ((*pending)[0].id, *results[0]);
  EXPECT_EQ((*pending)[1].id, *results[1]);
  EXPECT_EQ((*pending)[1].idempotency_token, "token-update");
}

TEST_P(JournalBatchTest, ACreateAfterTheDeleteOfTheSameObjectInOneBatchSeesItGone) {
  // Replace, destroy then create: the create's check must see the object the delete before
  // it in the batch removed, and make a placeholder rather than mark the deleted row.
  auto create = store->BeginOperation(cs, {Addr("aws_vpc.x"), OperationAction::Create, "aws", "token-old"});
  ASSERT_TRUE(create.ok());
  ASSERT_TRUE(store->CompleteOperation(cs, *create, Resource("aws_vpc.x", Value::Object({}))).ok());
  auto destroy = store->BeginOperation(cs, {Addr("aws_vpc.x"), OperationAction::Delete, "aws", "token-delete"});
  ASSERT_TRUE(destroy.ok());

  std::vector<JournalEntry> entries;
  entries.push_back(CompleteEntry(*destroy, std::nullopt));
  entries.push_back(BeginEntry("aws_vpc.x", OperationAction::Create, "token-new"));
  auto results = store->WriteJournal(cs, entries);
  ASSERT_TRUE(results[0].ok()) << results[0].status().message();
  ASSERT_TRUE(results[1].ok()) << results[1].status().message();

  auto stage = store->LoadStage("eks", {});
  const ResourceInstanceState* x = stage->FindResource(Addr("aws_vpc.x"));
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->status, ResourceStatus::PendingCreate);
  EXPECT_EQ(x->idempotency_token, "token-new");
}

TEST_P(JournalBatchTest, EntriesAreDurableWhenItReturns) {
  std::vector<JournalEntry> entries;
  entries.push_back(BeginEntry("aws_vpc.a", OperationAction::Create, "token-a"));
  entries.push_back(BeginEntry("aws_vpc.b", OperationAction::Create, "token-b"));
  auto results = store->WriteJournal(cs, entries);
  ASSERT_TRUE(results[0].ok() && results[1].ok());

  // Another connection (the next run, after kill -9) sees both creates pending with their tokens.
  std::unique_ptr<StateStore> next = OpenAny(Spec(dir.File("state.db"), &env));
  auto pending = next->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 2u);
  EXPECT_EQ((*pending)[0].idempotency_token, "token-a");
  EXPECT_EQ((*pending)[1].idempotency_token, "token-b");
}

TEST_P(JournalBatchTest, AChangeSetNoLongerOpenRefusesEveryEntryAndWritesNone) {
  ASSERT_TRUE(store->CommitChangeSet(cs, std::nullopt).ok());
  std::vector<JournalEntry> entries;
  entries.push_back(BeginEntry("aws_vpc.a", OperationAction::Create, "token-a"));
  entries.push_back(BeginEntry("aws_vpc.b", OperationAction::Create, "token-b"));
  auto results = store->WriteJournal(cs, entries);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].status().code(), StateCode::InvalidArgument);
  EXPECT_EQ(results[1].status().code(), StateCode::InvalidArgument);
  EXPECT_TRUE(store->PendingOperations("eks")->empty());
}

STRATA_ON_EVERY_BACKEND(JournalBatchTest);

}  // namespace
}  // namespace strata::state
