// The recovery file (state/recovery_file.h) and `state recover`'s push (state/recovery_push.h)
// on both backends; the e2e test postgres_recovery_test.sh stops a real server mid-apply.

#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "state/forwarding_store.h"
#include "state/recovering_store.h"
#include "state/recovery_file.h"
#include "state/recovery_push.h"
#include "state/store_shared.h"
#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

const char kRecoverySecret[] = "s3cret-in-flight-4711";

ResourceInstanceState SecretDb() {
  return Resource("aws_db_instance.main", Value::Object({{"id", Value::String("db-1")},
                                                          {"password", Value::String(kRecoverySecret).MarkSensitive()}}));
}

class RecoveryTest : public BackendTest {
 protected:
  crypto::KeyRing Ring() {
    crypto::KeyRing ring;
    ring.primary = key;
    return ring;
  }
  // An apply that began the create and lost its database before the answer was recorded:
  // the operation is pending in the store, and its result is in the file.
  RecoveryFile LoseTheAnswer() {
    auto lock = store->TryLock({"eks", "apply"});
    EXPECT_TRUE(lock.ok()) << lock.status().message();
    auto cs = store->BeginChangeSet(lock->id, "eks", "apply");
    auto op = store->BeginOperation(*cs, {Addr("aws_db_instance.main"), OperationAction::Create, "aws", "tok-1"});
    EXPECT_TRUE(op.ok()) << op.status().message();
    EXPECT_TRUE(store->Unlock("eks", lock->id).ok());
    RecoveryFile f;
    f.id = "file-1";
    f.environment = kDefaultEnvironment;
    f.stage = "eks";
    f.lineage = (*store->ListStages())[0].lineage;
    f.base_serial = 0;
    f.change_set = cs->id;
    f.operation = "apply";
    f.created_at = env.NowMillis();
    f.key_id = key.id;
    RecoveryWrite w;
    w.kind = RecoveryWrite::Kind::Complete;
    w.operation_id = *op;
    w.address = "aws_db_instance.main";
    w.resource = EncodeResource(SecretDb(), Ring(), env);
    f.writes.push_back(w);
    f.outputs = std::vector<StoredOutput>{EncodeOutput({"db", Value::String("db-1"), false}, Ring(), env)};
    f.committed = true;
    return f;
  }
  StateResult<RecoveryPushResult> Push(const RecoveryFile& f, bool force = false) {
    auto lock = store->TryLock({"eks", "state recover"});
    EXPECT_TRUE(lock.ok()) << lock.status().message();
    RecoveryPushOptions options;
    options.force = force;
    options.keys = Ring();
    auto pushed = PushRecovery(*store, lock->id, f, options);
    EXPECT_TRUE(store->Unlock("eks", lock->id).ok());
    return pushed;
  }

  TempDir dir;
  FakeEnvironment env;
  crypto::StateKey key = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
  std::unique_ptr<StateStore> store = OpenAny(Spec(dir.File("state.db"), &env, key));
};

TEST_P(RecoveryTest, PushWritesTheSavedResultOnceAndSealed) {
  RecoveryFile f = LoseTheAnswer();
  auto pushed = Push(f);
  ASSERT_TRUE(pushed.ok()) << pushed.status().message();
  EXPECT_FALSE(pushed->already_pushed);
  EXPECT_EQ(pushed->written, 1);
  EXPECT_EQ(pushed->serial, 1);
  auto stage = store->LoadStage("eks");
  ASSERT_TRUE(stage.ok()) << stage.status().message();
  const ResourceInstanceState* db = stage->FindResource(Addr("aws_db_instance.main"));
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->status, ResourceStatus::Created);
  EXPECT_EQ(db->attributes.AsMap().at("password").AsString(), kRecoverySecret);
  ASSERT_EQ(stage->outputs.size(), 1u);
  EXPECT_EQ(stage->outputs[0].name, "db");
  EXPECT_EQ(stage->outputs[0].value.AsString(), "db-1");
  EXPECT_TRUE(store->PendingOperations("eks")->empty());
  EXPECT_EQ(store->History("eks")->front().operation, RecoveryOperationName(f));
  std::string stored = StoredText(dir.File("state.db"));
  if (CurrentBackend() == Backend::Sqlite) stored += StoredText(dir.File("state.db") + "-wal");
  EXPECT_EQ(stored.find(kRecoverySecret), std::string::npos);

  // Twice: nothing more is written.
  auto again = Push(f);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(again->already_pushed);
  EXPECT_EQ(store->LoadStage("eks")->serial, 1);
  EXPECT_EQ(store->LoadStage("eks")->resources.size(), 1u);
}

TEST_P(RecoveryTest, AStageChangedSinceIsRefusedUnlessForced) {
  RecoveryFile f = LoseTheAnswer();
  ASSERT_TRUE(Push(f).ok());
  RecoveryFile other = f;
  other.id = "file-2";
  auto refused = Push(other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StateCode::SerialConflict);
  EXPECT_NE(refused.status().message().find("the stage was changed since"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("-force"), std::string::npos);
  // Forced: the operation is no longer pending, so its result is skipped, not doubled.
  auto forced = Push(other, true);
  ASSERT_TRUE(forced.ok()) << forced.status().message();
  EXPECT_EQ(forced->written, 0);
  EXPECT_EQ(forced->skipped.size(), 1u);
  EXPECT_EQ(store->LoadStage("eks")->resources.size(), 1u);
}

TEST_P(RecoveryTest, AnotherLineageIsRefused) {
  RecoveryFile f = LoseTheAnswer();
  f.lineage = "not-this-one";
  auto refused = Push(f);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StateCode::LineageMismatch);
}

STRATA_ON_EVERY_BACKEND(RecoveryTest);

TEST(RecoveryFileTest, RoundTripKeepsEverythingAndNoSecretInClear) {
  FakeEnvironment env;
  crypto::KeyRing ring;
  ring.primary = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
  RecoveryFile f;
  f.id = "abc";
  f.environment = "prod";
  f.stage = "eks";
  f.lineage = "lin";
  f.base_serial = 7;
  f.change_set = 42;
  f.operation = "apply";
  f.created_at = 1'700'000'000'000;
  f.where = "postgres://u:***@db/x (schema strata)";
  f.reason = "lost the connection";
  f.key_id = ring.primary->id;
  f.not_started = {"aws_vpc.b"};
  RecoveryWrite complete{RecoveryWrite::Kind::Complete, 5, "aws_db_instance.main", "", "",
                         EncodeResource(SecretDb(), ring, env)};
  RecoveryWrite fail{RecoveryWrite::Kind::Fail, 6, "aws_vpc.a", "", "quota", std::nullopt};
  RecoveryWrite restore{RecoveryWrite::Kind::RestoreDeposed, 0, "aws_vpc.c", "d1", "", std::nullopt};
  f.writes = {complete, fail, restore};
  f.outputs = std::vector<StoredOutput>{EncodeOutput({"t", Value::String(kRecoverySecret), true}, ring, env)};
  f.committed = true;

  TempDir dir;
  std::string path = dir.File("recovery/eks.json");
  ASSERT_TRUE(WriteRecoveryFile(path, f).ok());
  struct stat st{};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("aws_db_instance.main"), std::string::npos);
  EXPECT_EQ(text.find(kRecoverySecret), std::string::npos);

  auto read = ReadRecoveryFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(ToJson(*read), ToJson(f));
  EXPECT_EQ(read->writes[0].operation_id, 5);
  ASSERT_TRUE(read->writes[0].resource.has_value());
  auto decoded = DecodeResource(*read->writes[0].resource, ring, true, "eks");
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->attributes.AsMap().at("password").AsString(), kRecoverySecret);
  EXPECT_EQ(RecoveryFileName(f), "prod.eks-20231114T221320Z.json");
  EXPECT_EQ(PendingRecoveryFiles(dir.File("recovery"), "prod", "eks"), std::vector<std::string>{path});
  EXPECT_TRUE(PendingRecoveryFiles(dir.File("recovery"), "default").empty());

  nlohmann::json newer = ToJson(f);
  newer["format_version"] = RecoveryFile::kFormatVersion + 1;
  EXPECT_EQ(RecoveryFileFromJson(newer).status().code(), StateCode::SchemaTooNew);
  EXPECT_EQ(RecoveryFileFromJson(nlohmann::json{{"kind", "something else"}}).status().code(),
            StateCode::InvalidArgument);
}

}  // namespace
}  // namespace strata::state

namespace strata::state {
namespace {

using namespace testing;

// A store whose database "goes away" when `cut` is set: every change-set write then fails
// with Unreachable, as the PostgreSQL store does past its retry deadline.
class LosingStore final : public ForwardingStore {
 public:
  explicit LosingStore(StateStore& inner) : ForwardingStore(inner) {}
  bool cut = false;

  StateResult<int64_t> BeginOperation(const ChangeSet& cs, const OperationRequest& r) override {
    if (cut) return Lost();
    return inner_.BeginOperation(cs, r);
  }
  StateStatus CompleteOperation(const ChangeSet& cs, int64_t id, const std::optional<ResourceInstanceState>& r) override {
    return cut ? Lost() : inner_.CompleteOperation(cs, id, r);
  }
  StateStatus FailOperation(const ChangeSet& cs, int64_t id, const std::string& e,
                            const std::optional<ResourceInstanceState>& p = std::nullopt) override {
    return cut ? Lost() : inner_.FailOperation(cs, id, e, p);
  }
  StateStatus PutResource(const ChangeSet& cs, const ResourceInstanceState& r) override {
    return cut ? Lost() : inner_.PutResource(cs, r);
  }
  StateStatus DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& a) override {
    return cut ? Lost() : inner_.DeleteResource(cs, a);
  }
  StateStatus DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& a, const std::string& k) override {
    return cut ? Lost() : inner_.DeposeResource(cs, a, k);
  }
  StateStatus RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& a, const std::string& k) override {
    return cut ? Lost() : inner_.RestoreDeposed(cs, a, k);
  }
  StateStatus RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& f, const ResourceInstanceAddr& t,
                             const ResourceInstanceState* converted) override {
    return cut ? Lost() : inner_.RenameResource(cs, f, t, converted);
  }
  StateStatus RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& r) override {
    return cut ? Lost() : inner_.RecordUpstreamReads(cs, r);
  }
  StateResult<CommitResult> CommitChangeSet(const ChangeSet& cs, const std::optional<std::vector<OutputState>>& o) override {
    if (cut) return Lost();
    return inner_.CommitChangeSet(cs, o);
  }

 private:
  static StateStatus Lost() { return StateStatus::Error(StateCode::Unreachable, "lost the connection (test)"); }
};

TEST(RecoveringStoreTest, OfflineNothingStartsAndResultsGoToTheFileThenPushOnce) {
  TempDir dir;
  FakeEnvironment env;
  crypto::KeyRing ring;
  ring.primary = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
  auto sqlite = OpenOrDie(Options(dir.File("state.db"), &env, ring.primary));
  LosingStore losing(*sqlite);
  RecoveringStore store(losing, {dir.File("recovery"), ring});

  auto lock = store.TryLock({"eks", "apply"});
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  auto cs = store.BeginChangeSet(lock->id, "eks", "apply");
  ASSERT_TRUE(cs.ok()) << cs.status().message();
  auto op = store.BeginOperation(*cs, {Addr("aws_db_instance.main"), OperationAction::Create, "aws", "tok"});
  ASSERT_TRUE(op.ok());
  EXPECT_TRUE(store.file().empty());

  losing.cut = true;  // the database goes away while the create is in flight
  EXPECT_TRUE(store.CompleteOperation(*cs, *op, SecretDb()).ok());
  ASSERT_FALSE(store.file().empty());
  JournalEntry begin;
  begin.request = {Addr("aws_vpc.b"), OperationAction::Create, "aws", "t2"};
  auto next = store.WriteJournal(*cs, {begin});
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].status().code(), StateCode::Unreachable);
  EXPECT_NE(next[0].status().message().find("not started"), std::string::npos);
  auto committed = store.CommitChangeSet(*cs, std::vector<OutputState>{{"db", Value::String("db-1"), false}});
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.status().code(), StateCode::Unreachable);
  EXPECT_NE(committed.status().message().find(store.file()), std::string::npos) << committed.status().message();
  EXPECT_NE(committed.status().message().find("`strata state recover eks`"), std::string::npos);

  auto saved = ReadRecoveryFile(store.file());
  ASSERT_TRUE(saved.ok()) << saved.status().message();
  EXPECT_EQ(saved->writes.size(), 1u);
  EXPECT_EQ(saved->writes[0].address, "aws_db_instance.main");
  EXPECT_EQ(saved->not_started, std::vector<std::string>{"aws_vpc.b"});
  EXPECT_TRUE(saved->committed);
  EXPECT_FALSE(saved->secrets_masked);
  std::ifstream in(store.file());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find(kRecoverySecret), std::string::npos);
  EXPECT_EQ(sqlite->LoadStage("eks")->resources[0].status, ResourceStatus::PendingCreate);  // not written

  // The database is back: the push writes the result once.
  ASSERT_TRUE(sqlite->Unlock("eks", lock->id).ok());
  auto relock = sqlite->TryLock({"eks", "state recover"});
  ASSERT_TRUE(relock.ok());
  auto pushed = PushRecovery(*sqlite, relock->id, *saved, {false, ring});
  ASSERT_TRUE(pushed.ok()) << pushed.status().message();
  EXPECT_EQ(pushed->written, 1);
  auto stage = sqlite->LoadStage("eks");
  ASSERT_EQ(stage->resources.size(), 1u);
  EXPECT_EQ(stage->resources[0].status, ResourceStatus::Created);
  EXPECT_EQ(stage->resources[0].attributes.AsMap().at("password").AsString(), kRecoverySecret);
}

TEST(RecoveringStoreTest, WithoutAKeySecretsAreMasked) {
  TempDir dir;
  FakeEnvironment env;
  auto sqlite = OpenOrDie(Options(dir.File("state.db"), &env));
  LosingStore losing(*sqlite);
  RecoveringStore store(losing, {dir.File("recovery"), {}});
  auto lock = store.TryLock({"eks", "apply"});
  auto cs = store.BeginChangeSet(lock->id, "eks", "apply");
  auto op = store.BeginOperation(*cs, {Addr("aws_db_instance.main"), OperationAction::Create, "aws", "tok"});
  losing.cut = true;
  ASSERT_TRUE(store.CompleteOperation(*cs, *op, SecretDb()).ok());
  auto saved = ReadRecoveryFile(store.file());
  ASSERT_TRUE(saved.ok()) << saved.status().message();
  EXPECT_TRUE(saved->secrets_masked);
  std::ifstream in(store.file());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find(kRecoverySecret), std::string::npos);
  EXPECT_NE(text.find("\"secrets\": \"masked\""), std::string::npos);
}

}  // namespace
}  // namespace strata::state
