#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include <gtest/gtest.h>

#include "state/lock_guard.h"
#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

class LockTest : public BackendTest {
 protected:
  TempDir dir;
  FakeEnvironment env;
  std::unique_ptr<StateStore> store = OpenAny(Spec(dir.File("state.db"), &env));
};

TEST_P(LockTest, RefusalNamesHolderOperationSinceAndForceUnlock) {
  auto first = store->TryLock({"eks", "apply"});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->Holder(), "tester@test-host");
  EXPECT_EQ(first->pid, 4242);
  env.now += 90'000;
  auto second = store->TryLock({"eks", "plan"});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StateCode::LockHeld);
  const std::string& msg = second.status().message();
  EXPECT_NE(msg.find("tester@test-host"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pid 4242"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"apply\""), std::string::npos) << msg;
  EXPECT_NE(msg.find(FormatTimestamp(first->since)), std::string::npos) << msg;
  EXPECT_NE(msg.find("90 s ago"), std::string::npos) << msg;
  EXPECT_NE(msg.find("strata force-unlock " + first->id), std::string::npos) << msg;
  EXPECT_EQ(msg.find("STALE"), std::string::npos) << msg;
  // Other stages are independent.
  EXPECT_TRUE(store->TryLock({"addons", "apply"}).ok());
}

// A lock whose process is gone from this host (kill -9) is stale, and the next TryLock takes
// it over, saying whose it was; the dead holder can no longer write. A lock of another host
// is never taken over: its process cannot be seen from here.
// (SQLite: the lock is a row, its holder's liveness is asked of this host. PostgreSQL's lock
// dies with its session: postgres_store_test.cc.)
class SqliteLockTest : public ::testing::Test {
 protected:
  TempDir dir;
  FakeEnvironment env;
  std::unique_ptr<SqliteStateStore> store = OpenOrDie(Options(dir.File("state.db"), &env));
};

TEST_F(SqliteLockTest, StaleLockOfADeadProcessOnThisHostIsTakenOver) {
  auto first = store->TryLock({"eks", "apply"});
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->took_over.empty());
  auto cs = store->BeginChangeSet(first->id, "eks", "apply");
  ASSERT_TRUE(cs.ok());
  env.liveness = ProcessLiveness::Gone;
  auto current = store->CurrentLock("eks");
  ASSERT_TRUE(current.ok());
  ASSERT_TRUE(current->has_value());
  EXPECT_TRUE((*current)->stale);

  auto second = store->TryLock({"eks", "plan"});
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_NE(second->id, first->id);
  EXPECT_NE(second->took_over.find("tester@test-host (pid 4242) for \"apply\""), std::string::npos) << second->took_over;
  EXPECT_NE(second->took_over.find(first->id), std::string::npos) << second->took_over;
  Diagnostics warning = TakeoverWarning(*second);
  ASSERT_EQ(warning.items().size(), 1u);
  EXPECT_NE(warning.items()[0].detail.find("gone from this host, killed or crashed"), std::string::npos);
  auto write = store->BeginOperation(*cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "t"});
  EXPECT_EQ(write.status().code(), StateCode::LockNotHeld) << "the dead holder's change set is void";
  EXPECT_TRUE(store->Unlock("eks", second->id).ok());

  env.liveness = ProcessLiveness::Alive;
  auto remote = store->TryLock({"eks", "apply"});
  ASSERT_TRUE(remote.ok());
  env.liveness = ProcessLiveness::Gone;
  env.host = "another-host";  // we cannot see processes of other hosts
  EXPECT_FALSE((*store->CurrentLock("eks"))->stale);
  auto refused = store->TryLock({"eks", "apply"});
  EXPECT_EQ(refused.status().code(), StateCode::LockHeld);
  EXPECT_NE(refused.status().message().find("strata force-unlock " + remote->id), std::string::npos);
}

TEST_P(LockTest, ForceUnlockAndTheLoserCannotWriteAnyMore) {
  auto old_lock = store->TryLock({"eks", "apply"});
  auto cs = store->BeginChangeSet(old_lock->id, "eks", "apply");
  ASSERT_TRUE(cs.ok());

  auto unknown = store->ForceUnlock("no-such-id");
  EXPECT_EQ(unknown.status().code(), StateCode::NotFound);
  EXPECT_NE(unknown.status().message().find(old_lock->id), std::string::npos);  // lists held locks

  auto forced = store->ForceUnlock(old_lock->id);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(forced->stage, "eks");
  if (GetParam() == Backend::Sqlite) {
    EXPECT_EQ(forced->still_held, "");  // the stage is free at once
  }
  auto new_lock = store->TryLock({"eks", "apply"});
  ASSERT_TRUE(new_lock.ok());

  auto write = store->BeginOperation(*cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "t"});
  EXPECT_EQ(write.status().code(), StateCode::LockNotHeld);
  EXPECT_NE(write.status().message().find("force-unlocked"), std::string::npos) << write.status().message();
  EXPECT_EQ(store->Unlock("eks", old_lock->id).code(), StateCode::NotFound);
  EXPECT_TRUE(store->Unlock("eks", new_lock->id).ok());
}

TEST_P(LockTest, WritesWithoutTheLockAreRefused) {
  EXPECT_EQ(store->BeginChangeSet("made-up", "eks", "apply").status().code(), StateCode::LockNotHeld);
  EXPECT_EQ(store->RemoveResources("made-up", "eks", {"aws_vpc.a"}).status().code(), StateCode::LockNotHeld);
}

TEST_P(LockTest, TimeoutRetriesWithBackoffThenReportsTheHolder) {
  ASSERT_TRUE(store->TryLock({"eks", "apply"}).ok());
  int64_t start = env.now;
  auto waited = store->Lock({"eks", "plan", std::chrono::seconds(5)});
  ASSERT_FALSE(waited.ok());
  EXPECT_EQ(waited.status().code(), StateCode::LockHeld);
  EXPECT_EQ(env.now - start, 5000);  // waited exactly the timeout (the fake clock sleeps)
}

TEST_P(LockTest, ScopedLockReleasesAndRegisters) {
  {
    auto lock = ScopedStageLock::Acquire(*store, {"eks", "apply"});
    ASSERT_TRUE(lock.ok());
    EXPECT_EQ(HeldLocks::Instance().size(), 1u);
    EXPECT_FALSE(store->TryLock({"eks", "apply"}).ok());
  }
  EXPECT_EQ(HeldLocks::Instance().size(), 0u);
  EXPECT_TRUE(store->TryLock({"eks", "apply"}).ok());
}

TEST_P(LockTest, EmergencyUnlockerUsesItsOwnConnection) {
  auto lock = store->TryLock({"eks", "apply"});
  store->EmergencyUnlocker("eks", lock->id)();
  EXPECT_FALSE(store->CurrentLock("eks")->has_value());
}

// Several processes increment a counter kept in the stage's outputs, each under the lock,
// waiting for it with -lock-timeout. Lost updates would mean two of them wrote at once.
class LockRaceTest : public BackendTest {};

TEST_P(LockRaceTest, ProcessesRacingForTheLockNeverBothWrite) {
  TempDir dir;
  std::string path = dir.File("state.db");
  {
    FakeEnvironment env;
    OpenAny(Spec(path, &env));  // create the schema before the race; closed before fork
  }
  constexpr int kProcesses = 4;
  constexpr int kRounds = 5;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    std::fflush(nullptr);  // the child must not flush our buffered output again
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      {
        auto opened = OpenStore(Spec(path, &StateEnvironment::System()));
        if (!opened.ok()) _exit(10);
        auto& s = **opened;
        for (int round = 0; round < kRounds && code == 0; ++round) {
          auto lock = s.Lock({"eks", "apply", std::chrono::seconds(30)});
          if (!lock.ok()) { code = 11; break; }
          auto outputs = s.LoadStage("eks", {});
          double n = 0;
          if (outputs.ok() && outputs->FindOutput("counter")) n = outputs->FindOutput("counter")->value.AsNumber();
          auto cs = s.BeginChangeSet(lock->id, "eks", "apply");
          if (!cs.ok()) { code = 12; break; }
          usleep(2000);  // widen the window for a lost update
          auto commit = s.CommitChangeSet(*cs, std::vector<OutputState>{{"counter", Value::Number(n + 1), false}});
          if (!commit.ok()) code = 13;
          if (!s.Unlock("eks", lock->id).ok()) code = 14;
        }
      }
      _exit(code);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  FakeEnvironment env;
  auto store = OpenAny(Spec(path, &env));
  auto stage = store->LoadStage("eks", {});
  ASSERT_TRUE(stage.ok());
  EXPECT_EQ(stage->FindOutput("counter")->value.AsNumber(), kProcesses * kRounds);
  EXPECT_EQ(stage->serial, kProcesses * kRounds);
  EXPECT_FALSE(store->CurrentLock("eks")->has_value());
}

STRATA_ON_EVERY_BACKEND(LockTest);
STRATA_ON_EVERY_BACKEND(LockRaceTest);

}  // namespace
}  // namespace strata::state
