// What only the PostgreSQL store has: locks that are advisory locks of a session, a schema
// per project, the connection string's password kept out of every message, and the schema
// version check. (The behaviour both stores share is tested on both: store_backends.h.)

#include <unistd.h>

#include <gtest/gtest.h>

#include "engine/cli/wiring.h"
#include "state/postgres/conninfo.h"
#include "state/postgres/pg_connection.h"
#include "state/postgres/pg_pool.h"
#include "state/postgres/pg_schema.h"
#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

TEST(ConnectionUrlTest, ThePasswordIsMaskedAndTheRestKept) {
  using pg::MaskConnectionUrl;
  EXPECT_EQ(MaskConnectionUrl("postgres://alice:s3cret@db.example.com:5432/state?sslmode=verify-full"),
            "postgres://alice:***@db.example.com:5432/state?sslmode=verify-full");
  EXPECT_EQ(MaskConnectionUrl("postgresql://alice:p@ss@db/state"), "postgresql://alice:***@db/state");
  EXPECT_EQ(MaskConnectionUrl("postgres://alice@db/state"), "postgres://alice@db/state");
  EXPECT_EQ(MaskConnectionUrl("postgres://db/state?user=bob&password=hunter2&sslmode=require"),
            "postgres://db/state?user=bob&password=***&sslmode=require");
  EXPECT_EQ(MaskConnectionUrl("host=db user=bob password=hunter2 dbname=state"),
            "host=db user=bob password=*** dbname=state");
  EXPECT_EQ(MaskConnectionUrl("host=db password = 'it\\'s a secret' dbname=state"),
            "host=db password = *** dbname=state");
  EXPECT_EQ(MaskConnectionUrl("host=/tmp/sock port=5432"), "host=/tmp/sock port=5432");
  EXPECT_EQ(pg::ConninfoPassword("postgres://alice:s3cret@db/state"), "s3cret");
  EXPECT_EQ(pg::ScrubSecret("login s3cret failed for s3cret", "s3cret"), "login *** failed for ***");
}

TEST(ConnectionUrlTest, SchemaNamesArePlainIdentifiers) {
  EXPECT_EQ(pg::InvalidSchemaReason("strata"), "");
  EXPECT_EQ(pg::InvalidSchemaReason("team_a_state2"), "");
  EXPECT_NE(pg::InvalidSchemaReason(""), "");
  EXPECT_NE(pg::InvalidSchemaReason("Team"), "");
  EXPECT_NE(pg::InvalidSchemaReason("a;drop"), "");
  EXPECT_NE(pg::InvalidSchemaReason("9lives"), "");
  EXPECT_NE(pg::InvalidSchemaReason("pg_catalog"), "");
  EXPECT_NE(pg::InvalidSchemaReason(std::string(64, 'a')), "");
}

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    UseBackend(Backend::Postgres);
    if (!TestPostgresServer().unavailable.empty()) {
      GTEST_SKIP() << "SKIPPED (no PostgreSQL server): " << TestPostgresServer().unavailable;
    }
    first = OpenAny(Spec(path, &env));
    second = OpenAny(Spec(path, &other_env));
    ASSERT_TRUE(first && second);
    other_env.user = "bob";
    other_env.host = "laptop-2";
    other_env.pid = 777;
  }
  //! A connection of its own, to look at or act on the server as an administrator would.
  std::unique_ptr<pg::Connection> Admin() { return pg::Connection::Open(TestPostgresServer().conninfo, SchemaFor(path)); }

  TempDir dir;
  std::string path = dir.File("state.db");
  FakeEnvironment env;
  FakeEnvironment other_env;
  std::unique_ptr<StateStore> first;
  std::unique_ptr<StateStore> second;
};

TEST_F(PostgresStoreTest, OfTwoStoresLockingOneStageExactlyOneGetsItAndTheOtherNamesTheHolder) {
  auto mine = first->TryLock({"eks", "apply"});
  ASSERT_TRUE(mine.ok()) << mine.status().message();
  auto theirs = second->TryLock({"eks", "apply"});
  ASSERT_FALSE(theirs.ok());
  EXPECT_EQ(theirs.status().code(), StateCode::LockHeld);
  const std::string& msg = theirs.status().message();
  EXPECT_NE(msg.find("tester@test-host (pid 4242) for \"apply\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("strata force-unlock " + mine->id), std::string::npos) << msg;
  // Another stage is free; the holder's release lets the other in.
  EXPECT_TRUE(second->TryLock({"addons", "apply"}).ok());
  ASSERT_TRUE(first->Unlock("eks", mine->id).ok());
  auto now = second->TryLock({"eks", "apply"});
  ASSERT_TRUE(now.ok()) << now.status().message();
  EXPECT_TRUE(now->took_over.empty());
}

TEST_F(PostgresStoreTest, TheLockDiesWithItsHoldersConnection) {
  auto lock = first->TryLock({"eks", "apply"});
  ASSERT_TRUE(lock.ok());
  auto cs = first->BeginChangeSet(lock->id, "eks", "apply");
  ASSERT_TRUE(cs.ok());
  auto admin = Admin();
  // The holder's process is killed (kill -9, a lost machine): its lock's session ends. (The
  // row names the advisory key; pg_terminate_backend waits up to 5 s for the end.)
  pg::Rows killed = admin->Query(
      "SELECT pg_terminate_backend(l.pid, 5000) FROM pg_locks l, locks k WHERE l.locktype = 'advisory' "
      "AND l.granted AND l.classid::bigint = ((k.lock_key >> 32) & 4294967295) "
      "AND l.objid::bigint = (k.lock_key & 4294967295) AND k.stage = $1",
      {std::string("eks")});
  ASSERT_EQ(killed.size(), 1);
  EXPECT_TRUE(killed.Bool(0, 0));
  EXPECT_TRUE(second->CurrentLock("eks")->value().stale);
  auto taken = second->TryLock({"eks", "apply"});
  ASSERT_TRUE(taken.ok()) << taken.status().message();
  EXPECT_NE(taken->took_over.find("tester@test-host (pid 4242) for \"apply\""), std::string::npos) << taken->took_over;
  EXPECT_NE(taken->took_over.find(lock->id), std::string::npos);
  // The dead holder's change set is void (its connection for writes may live on elsewhere).
  auto write = first->BeginOperation(*cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "t"});
  EXPECT_EQ(write.status().code(), StateCode::LockNotHeld);
}

TEST_F(PostgresStoreTest, ForceUnlockLetsNobodyInWhileTheHolderSessionLives) {
  auto lock = first->TryLock({"eks", "apply"});
  ASSERT_TRUE(lock.ok());
  auto cs = first->BeginChangeSet(lock->id, "eks", "apply");
  auto forced = second->ForceUnlock(lock->id);
  ASSERT_TRUE(forced.ok()) << forced.status().message();
  EXPECT_EQ(forced->Holder(), "tester@test-host");
  EXPECT_NE(forced->still_held.find("session is still connected"), std::string::npos) << forced->still_held;
  auto refused = second->TryLock({"eks", "apply"});
  ASSERT_EQ(refused.status().code(), StateCode::LockHeld);
  EXPECT_NE(refused.status().message().find("force-unlocked"), std::string::npos) << refused.status().message();
  EXPECT_NE(refused.status().message().find("pg_terminate_backend"), std::string::npos);
  // The old holder cannot write any more...
  EXPECT_EQ(first->BeginOperation(*cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "t"}).status().code(),
            StateCode::LockNotHeld);
  // ...and once its session is gone, the stage is free. (The server ends a closed
  // connection's session a moment later: real time, not the fake clock.)
  first.reset();
  auto taken = second->TryLock({"eks", "apply"});
  for (int i = 0; i < 250 && !taken.ok(); ++i) {
    usleep(20'000);
    taken = second->TryLock({"eks", "apply"});
  }
  ASSERT_TRUE(taken.ok()) << taken.status().message();
  EXPECT_TRUE(taken->took_over.empty());
}

TEST_F(PostgresStoreTest, LockTimeoutWaitsForTheOtherHolder) {
  ASSERT_TRUE(first->TryLock({"eks", "apply"}).ok());
  int64_t start = other_env.now;
  auto waited = second->Lock({"eks", "plan", std::chrono::seconds(3)});
  EXPECT_EQ(waited.status().code(), StateCode::LockHeld);
  EXPECT_EQ(other_env.now - start, 3000);
}

TEST_F(PostgresStoreTest, ANewerSchemaIsRefusedAndLeftUntouched) {
  Admin()->Query("UPDATE strata_schema_version SET version = $1", {pg::kPgSchemaVersion + 1});
  auto opened = OpenStore(Spec(path, &env));
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StateCode::SchemaTooNew);
  EXPECT_NE(opened.status().message().find("schema version " + std::to_string(pg::kPgSchemaVersion + 1)),
            std::string::npos)
      << opened.status().message();
  EXPECT_NE(opened.status().message().find("upgrade strata"), std::string::npos);
  EXPECT_EQ(pg::ReadPgSchemaVersion(*Admin()), pg::kPgSchemaVersion + 1);
}

TEST_F(PostgresStoreTest, SchemasKeepProjectsApart) {
  auto other_project = OpenAny(Spec(dir.File("other.db"), &env));
  ASSERT_TRUE(other_project);
  ApplyResources(*first, "eks", {Resource("aws_vpc.a")});
  EXPECT_TRUE(other_project->ListStages()->empty());
  auto lock = first->TryLock({"eks", "apply"});
  ASSERT_TRUE(lock.ok());
  EXPECT_TRUE(other_project->TryLock({"eks", "apply"}).ok());  // same stage name, another schema
}

TEST_F(PostgresStoreTest, ThePasswordIsInNoMessage) {
  const TestPostgres& server = TestPostgresServer();
  // A wrong password: authentication fails; the message says where, never the password.
  std::string wrong = "wrong-pw-" + std::to_string(server.port);
  PostgresStoreOptions bad;
  bad.url = "postgresql://strata:" + wrong + "@127.0.0.1:" + std::to_string(server.port) + "/postgres";
  bad.env = &env;
  auto refused = PostgresStateStore::Open(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message().find(wrong), std::string::npos) << refused.status().message();
  EXPECT_NE(refused.status().message().find("postgresql://strata:***@127.0.0.1"), std::string::npos)
      << refused.status().message();
  // The right one, then an error of the store (an environment that does not exist).
  PostgresStoreOptions right;
  right.url = "postgresql://strata:" + server.password + "@127.0.0.1:" + std::to_string(server.port) + "/postgres";
  right.schema = SchemaFor(path);
  right.env = &env;
  right.environment = "nowhere";
  auto missing = PostgresStateStore::Open(right);
  ASSERT_EQ(missing.status().code(), StateCode::NotFound) << missing.status().message();
  EXPECT_EQ(missing.status().message().find(server.password), std::string::npos) << missing.status().message();
  right.environment = "default";
  auto opened = PostgresStateStore::Open(right);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  EXPECT_EQ((*opened)->Where().find(server.password), std::string::npos);
}

TEST_F(PostgresStoreTest, StrataPgUrlSelectsThePostgresBackend) {
  ProjectConfig project;
  project.root_dir = dir.path();
  project.state.schema = SchemaFor(path);
  FakeEnvironment with_url;
  with_url.vars["STRATA_PG_URL"] = TestPostgresServer().conninfo;
  EXPECT_EQ(cli::ProjectStateBackend(project, with_url), "postgres");
  ApplyResources(*first, "eks", {Resource("aws_vpc.a")});
  auto store = cli::OpenProjectStore(project, "default", with_url);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_EQ((*store)->LoadStage("eks")->resources.size(), 1u);
  EXPECT_FALSE(std::filesystem::exists(dir.File(".strata/state.db")));
  // A variable set to nothing (an unset CI secret) selects nothing.
  FakeEnvironment empty_url;
  empty_url.vars["STRATA_PG_URL"] = "";
  EXPECT_EQ(cli::ProjectStateBackend(project, empty_url), "sqlite");
  // strata.yaml's explicit sqlite wins over the variable.
  project.state.backend_given = true;
  EXPECT_EQ(cli::ProjectStateBackend(project, with_url), "sqlite");
}

// Connections pooled per process (pg_pool.h): a store opened after another was closed reuses
// its connection, and its lock connection too.
TEST_F(PostgresStoreTest, AStoreOpenedAfterAnotherClosedReusesItsConnections) {
  auto lock = first->TryLock({"eks", "apply"});
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  ASSERT_TRUE(first->Unlock("eks", lock->id).ok());
  first.reset();
  auto& pool = pg::ConnectionPool::Process();
  int64_t opened = pool.opened();
  auto again = OpenAny(Spec(path, &env));
  ASSERT_TRUE(again);
  auto relock = again->TryLock({"eks", "apply"});
  ASSERT_TRUE(relock.ok()) << relock.status().message();
  EXPECT_EQ(pool.opened(), opened);
  // The lock still dies with its session: the pooled lock connection held none.
  auto theirs = second->TryLock({"eks", "apply"});
  EXPECT_EQ(theirs.status().code(), StateCode::LockHeld);
}

TEST_F(PostgresStoreTest, APooledConnectionTheServerDroppedIsReplaced) {
  first.reset();
  second.reset();
  auto admin = Admin();
  admin->Query("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = 'strata' "
               "AND state = 'idle' AND pid <> pg_backend_pid()");
  auto again = OpenAny(Spec(path, &env));
  ASSERT_TRUE(again);
  auto stages = again->ListStages();
  EXPECT_TRUE(stages.ok()) << stages.status().message();
}

// The journal's writes are pipelined (pg_connection.h, Connection::Pipeline): the same batch
// with pipeline mode and without (the path of a libpq older than 14) has the same effect.
JournalEntry PgBeginEntry(const std::string& address, OperationAction action, const std::string& provider) {
  JournalEntry e;
  e.request = {Addr(address), action, provider, "token-" + address};
  return e;
}

class PostgresJournalTest : public PostgresStoreTest, public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    PostgresStoreTest::SetUp();
    if (IsSkipped()) return;
    pg::Connection::AllowPipelineMode(GetParam());
    lock = *first->TryLock({"eks", "apply"});
    cs = *first->BeginChangeSet(lock.id, "eks", "apply");
  }
  void TearDown() override { pg::Connection::AllowPipelineMode(true); }

  LockInfo lock;
  ChangeSet cs;
};

TEST_P(PostgresJournalTest, ARefusedEntryInTheMiddleLeavesExactlyTheOthers) {
  auto created = first->BeginOperation(cs, {Addr("aws_vpc.a"), OperationAction::Create, "aws", "token-a"});
  ASSERT_TRUE(created.ok()) << created.status().message();
  std::vector<JournalEntry> entries;
  entries.push_back(PgBeginEntry("aws_vpc.b", OperationAction::Create, "aws"));
  entries.push_back(PgBeginEntry("aws_vpc.missing", OperationAction::Delete, "aws"));  // not in state: refused
  JournalEntry complete;
  complete.kind = JournalEntry::Kind::Complete;
  complete.operation_id = *created;
  complete.state = Resource("aws_vpc.a", Value::Object({{"id", Value::String("vpc-a")}}));
  entries.push_back(complete);
  entries.push_back(PgBeginEntry("aws_vpc.c", OperationAction::Create, "aws"));
  auto results = first->WriteJournal(cs, entries);

  ASSERT_EQ(results.size(), 4u);
  ASSERT_TRUE(results[0].ok()) << results[0].status().message();
  EXPECT_EQ(results[1].status().code(), StateCode::NotFound);
  EXPECT_TRUE(results[2].ok()) << results[2].status().message();
  ASSERT_TRUE(results[3].ok()) << results[3].status().message();
  EXPECT_GT(*results[3], *results[0]);
  // Seen from another connection: committed, and only the accepted entries.
  auto pending = second->PendingOperations("eks");
  ASSERT_EQ(pending->size(), 2u);
  EXPECT_EQ((*pending)[0].id, *results[0]);
  EXPECT_EQ((*pending)[1].id, *results[3]);
  auto stage = second->LoadStage("eks");
  ASSERT_TRUE(stage.ok());
  ASSERT_NE(stage->FindResource(Addr("aws_vpc.a")), nullptr);
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.a"))->status, ResourceStatus::Created);
  EXPECT_EQ(stage->FindResource(Addr("aws_vpc.missing")), nullptr);
  auto commit = first->CommitChangeSet(cs, std::nullopt);
  ASSERT_TRUE(commit.ok());
  EXPECT_TRUE(commit->changed);
}

TEST_P(PostgresJournalTest, AWriteTheServerRejectsFailsTheBatchWritesNothingAndTheStoreGoesOn) {
  // Not valid UTF-8: the server rejects the placeholder row's provider. Pipelined, the
  // failure comes back with the next entry's read; the batch fails as a whole either way.
  std::vector<JournalEntry> entries;
  entries.push_back(PgBeginEntry("aws_vpc.a", OperationAction::Create, "aws"));
  entries.push_back(PgBeginEntry("aws_vpc.b", OperationAction::Create, "aws\xff"));
  entries.push_back(PgBeginEntry("aws_vpc.c", OperationAction::Create, "aws"));
  auto results = first->WriteJournal(cs, entries);
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StateCode::Io);
    EXPECT_NE(r.status().message().find("UTF8"), std::string::npos) << r.status().message();
  }
  EXPECT_TRUE(second->PendingOperations("eks")->empty());
  EXPECT_TRUE(second->LoadStage("eks")->resources.empty());

  // The connection is clean again (no statement left over, no transaction open).
  auto next = first->WriteJournal(cs, {PgBeginEntry("aws_vpc.d", OperationAction::Create, "aws")});
  ASSERT_EQ(next.size(), 1u);
  ASSERT_TRUE(next[0].ok()) << next[0].status().message();
  EXPECT_EQ(second->PendingOperations("eks")->size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(PipelineMode, PostgresJournalTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "Pipelined" : "OneByOne");
                         });

}  // namespace
}  // namespace strata::state
