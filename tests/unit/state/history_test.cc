#include <gtest/gtest.h>

#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

class HistoryTest : public BackendTest {};

TEST_P(HistoryTest, EverySerialIsKeptAndRollbackRestoresOneAsANewSerial) {
  TempDir dir;
  FakeEnvironment env;
  auto store = OpenAny(Spec(dir.File("state.db"), &env));
  ApplyResources(*store, "eks", {Resource("aws_vpc.a")}, std::vector<OutputState>{{"n", Value::Number(1), false}});
  env.now += 1000;
  ApplyResources(*store, "eks", {Resource("aws_vpc.b")}, std::vector<OutputState>{{"n", Value::Number(2), false}});
  auto history = store->History("eks");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[0].serial, 2);  // newest first
  EXPECT_EQ((*history)[0].resource_count, 2);
  EXPECT_EQ((*history)[1].serial, 1);
  EXPECT_EQ((*history)[1].operation, "apply");
  EXPECT_EQ((*history)[1].holder, "tester@test-host");

  auto snap = store->LoadSnapshot("eks", 1, {});
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap->resources.size(), 1u);

  auto lock = store->TryLock({"eks", "state rollback"});
  auto serial = store->Rollback(lock->id, "eks", 1);
  ASSERT_TRUE(serial.ok()) << serial.status().message();
  EXPECT_EQ(*serial, 3);
  auto now = store->LoadStage("eks", {});
  EXPECT_EQ(now->serial, 3);
  ASSERT_EQ(now->resources.size(), 1u);
  EXPECT_EQ(now->resources[0].addr.ToString(), "aws_vpc.a");
  EXPECT_EQ(now->FindOutput("n")->value.AsNumber(), 1);
  EXPECT_EQ((*store->History("eks"))[0].operation, "rollback to 1");

  EXPECT_EQ(store->Rollback(lock->id, "eks", 42).status().code(), StateCode::NotFound);
  EXPECT_EQ(store->Rollback(lock->id, "eks", 3).status().code(), StateCode::InvalidArgument);
}

TEST_P(HistoryTest, RetentionKeepsTheLastN) {
  TempDir dir;
  FakeEnvironment env;
  auto options = Spec(dir.File("state.db"), &env);
  options.history_retention = 3;
  auto store = OpenAny(options);
  for (int i = 0; i < 6; ++i) ApplyResources(*store, "eks", {Resource("aws_vpc.v" + std::to_string(i))});
  auto history = store->History("eks");
  ASSERT_EQ(history->size(), 3u);
  EXPECT_EQ((*history)[0].serial, 6);
  EXPECT_EQ((*history)[2].serial, 4);
}

STRATA_ON_EVERY_BACKEND(HistoryTest);

}  // namespace
}  // namespace strata::state
