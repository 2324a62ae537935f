// The outputs of earlier stages a stage read at its last apply (StateStore::RecordUpstreamReads
// and LoadUpstreamReads), through the StateStore interface only, so that the cases hold for
// every backend: a write of the change set under its lock, replaced whole, kept apart from
// the stage's state (no serial, no history), per environment, a sensitive value's digest
// kept as a secret.

#include <gtest/gtest.h>

#include "store_backends.h"

namespace strata::state {
namespace {

using namespace testing;

UpstreamRead Read(const std::string& stage, const std::string& output, int64_t serial, const std::string& digest,
                  bool sensitive = false) {
  return {stage, output, serial, digest, sensitive};
}

class UpstreamReadsTest : public BackendTest {
 protected:
  //! Records `reads` for `stage` in a change set of its own, committed; the commit's result.
  CommitResult Record(StateStore& s, const std::string& stage, const std::vector<UpstreamRead>& reads) {
    auto lock = s.TryLock({stage, "apply"});
    EXPECT_TRUE(lock.ok()) << lock.status().message();
    auto cs = s.BeginChangeSet(lock->id, stage, "apply");
    EXPECT_TRUE(cs.ok()) << cs.status().message();
    StateStatus recorded = s.RecordUpstreamReads(*cs, reads);
    EXPECT_TRUE(recorded.ok()) << recorded.message();
    auto commit = s.CommitChangeSet(*cs, std::nullopt);
    EXPECT_TRUE(commit.ok()) << commit.status().message();
    EXPECT_TRUE(s.Unlock(stage, lock->id).ok());
    return commit.ok() ? *commit : CommitResult{};
  }

  std::vector<UpstreamRead> Load(StateStore& s, const std::string& stage) {
    auto reads = s.LoadUpstreamReads(stage);
    EXPECT_TRUE(reads.ok()) << reads.status().message();
    return reads.ok() ? *reads : std::vector<UpstreamRead>{};
  }

  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  std::unique_ptr<StateStore> store = OpenAny(Spec(path, &env));
};

TEST_P(UpstreamReadsTest, NothingRecordedIsEmptyNotAnError) {
  EXPECT_TRUE(Load(*store, "addons").empty());
  ApplyResources(*store, "addons", {Resource("aws_vpc.main")});
  EXPECT_TRUE(Load(*store, "addons").empty());
}

TEST_P(UpstreamReadsTest, KeepsEveryFieldByStageAndOutput) {
  ApplyResources(*store, "addons", {Resource("aws_vpc.main")});
  Record(*store, "addons",
         {Read("net", "vpc_id", 3, "d1"), Read("eks", "token", 12, "d2", true), Read("eks", "cluster_endpoint", 12, "d3")});
  std::vector<UpstreamRead> expected{Read("eks", "cluster_endpoint", 12, "d3"), Read("eks", "token", 12, "d2", true),
                                     Read("net", "vpc_id", 3, "d1")};
  EXPECT_EQ(Load(*store, "addons"), expected);
  EXPECT_TRUE(Load(*store, "eks").empty()) << "recorded for the reader only";
}

TEST_P(UpstreamReadsTest, ARecordReplacesTheLastOneWhole) {
  ApplyResources(*store, "addons", {Resource("aws_vpc.main")});
  Record(*store, "addons", {Read("eks", "cluster_endpoint", 12, "old"), Read("eks", "cluster_ca", 12, "ca")});
  Record(*store, "addons", {Read("eks", "cluster_endpoint", 14, "new")});
  EXPECT_EQ(Load(*store, "addons"), std::vector<UpstreamRead>{Read("eks", "cluster_endpoint", 14, "new")});
  Record(*store, "addons", {});
  EXPECT_TRUE(Load(*store, "addons").empty());
}

TEST_P(UpstreamReadsTest, MovesNoSerialAndStaysOutOfTheHistory) {
  ApplyResources(*store, "addons", {Resource("aws_vpc.main")});
  CommitResult commit = Record(*store, "addons", {Read("eks", "cluster_endpoint", 12, "d")});
  EXPECT_FALSE(commit.changed);
  EXPECT_EQ(commit.serial, 1);
  EXPECT_EQ(store->History("addons")->size(), 1u);
  // State edits leave the record as the last apply made it.
  auto lock = store->TryLock({"addons", "state rm"});
  ASSERT_TRUE(lock.ok());
  ASSERT_TRUE(store->RemoveResources(lock->id, "addons", {"aws_vpc.main"}).ok());
  ASSERT_TRUE(store->Rollback(lock->id, "addons", 1).ok());
  ASSERT_TRUE(store->Unlock("addons", lock->id).ok());
  EXPECT_EQ(Load(*store, "addons").size(), 1u);
}

TEST_P(UpstreamReadsTest, NeedsTheLockAndAnOpenChangeSet) {
  auto lock = store->TryLock({"addons", "apply"});
  ASSERT_TRUE(lock.ok());
  auto cs = store->BeginChangeSet(lock->id, "addons", "apply");
  ASSERT_TRUE(cs.ok());
  ASSERT_TRUE(store->CommitChangeSet(*cs, std::nullopt).ok());
  EXPECT_EQ(store->RecordUpstreamReads(*cs, {Read("eks", "x", 1, "d")}).code(), StateCode::InvalidArgument)
      << "a committed change set takes no more writes";
  auto open = store->BeginChangeSet(lock->id, "addons", "apply");
  ASSERT_TRUE(open.ok());
  ASSERT_TRUE(store->ForceUnlock(lock->id).ok());
  EXPECT_EQ(store->RecordUpstreamReads(*open, {Read("eks", "x", 1, "d")}).code(), StateCode::LockNotHeld);
  EXPECT_TRUE(Load(*store, "addons").empty());
}

TEST_P(UpstreamReadsTest, EachEnvironmentKeepsItsOwnAndDeletingOneDeletesThem) {
  ApplyResources(*store, "addons", {Resource("aws_vpc.main")});
  Record(*store, "addons", {Read("eks", "cluster_endpoint", 12, "default")});
  ASSERT_TRUE(store->CreateEnvironment("prod").ok());
  StoreSpec prod_options = Spec(path, &env);
  prod_options.environment = "prod";
  std::unique_ptr<StateStore> prod = OpenAny(prod_options);
  ASSERT_TRUE(prod);
  EXPECT_TRUE(Load(*prod, "addons").empty());
  ApplyResources(*prod, "addons", {Resource("aws_vpc.main")});
  Record(*prod, "addons", {Read("eks", "cluster_endpoint", 2, "prod")});
  EXPECT_EQ(Load(*store, "addons")[0].digest, "default");
  EXPECT_EQ(Load(*prod, "addons")[0].digest, "prod");

  prod.reset();
  ASSERT_TRUE(store->DeleteEnvironment("prod", true).ok());
  ASSERT_TRUE(store->CreateEnvironment("prod").ok());
  prod = OpenAny(prod_options);
  ASSERT_TRUE(prod);
  EXPECT_TRUE(Load(*prod, "addons").empty());
  EXPECT_EQ(Load(*store, "addons").size(), 1u);
}

TEST_P(UpstreamReadsTest, ASensitiveDigestIsASecretAtRest) {
  crypto::StateKey key = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
  crypto::StateKey next = Key("the next key, a passphrase");
  std::string digest(64, 'a');
  {
    std::unique_ptr<StateStore> keyed = OpenAny(Spec(path, &env, key));
    ApplyResources(*keyed, "addons", {Resource("aws_vpc.main")});
    Record(*keyed, "addons", {Read("eks", "endpoint", 12, "plain-digest"), Read("eks", "token", 12, digest, true)});
    EXPECT_EQ(keyed->CountSecrets()->current_key, 1);
    EXPECT_EQ(Load(*keyed, "addons")[1].digest, digest);
  }
  auto without = OpenAny(Spec(path, &env))->LoadUpstreamReads("addons");
  EXPECT_EQ(without.status().code(), StateCode::KeyMissing);
  EXPECT_NE(without.status().message().find("stage addons: the digest of stage eks output token"), std::string::npos)
      << without.status().message();

  StoreSpec rotated = Spec(path, &env, next);
  rotated.keys.old_keys.push_back(key);
  std::unique_ptr<StateStore> store2 = OpenAny(rotated);
  EXPECT_EQ(store2->CountSecrets()->other_key, 1);
  auto n = store2->Rekey();
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, 1);
  EXPECT_EQ(store2->CountSecrets()->current_key, 1);
  EXPECT_EQ(Load(*OpenAny(Spec(path, &env, next)), "addons")[1].digest, digest);
}

TEST_P(UpstreamReadsTest, ASensitiveDigestIsCountedInClearWithoutAKey) {
  ApplyResources(*store, "addons", {Resource("aws_vpc.main")});
  Record(*store, "addons", {Read("eks", "token", 12, "d", true)});
  EXPECT_EQ(store->CountSecrets()->in_clear, 1);
  EXPECT_EQ(Load(*store, "addons")[0].digest, "d");
}

STRATA_ON_EVERY_BACKEND(UpstreamReadsTest);

}  // namespace
}  // namespace strata::state
