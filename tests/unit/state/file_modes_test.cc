// The state database's files are private (0600) whatever the umask; a wider one is
// tightened by the next open that may write, and a store opened read-only touches nothing:
// it creates no file, chmods nothing, migrates nothing and refuses writes.

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "state/sqlite/schema.h"
#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

unsigned ModeOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

class FileModesTest : public ::testing::Test {
 protected:
  void SetUp() override { old_umask_ = ::umask(0); }  // the widest umask there is
  void TearDown() override { ::umask(old_umask_); }

  SqliteStoreOptions ReadOnly(const std::string& path) {
    SqliteStoreOptions options = Options(path, &env_);
    options.access = StoreAccess::ReadOnly;
    return options;
  }

  TempDir dir_;
  FakeEnvironment env_;
  mode_t old_umask_ = 0;
};

TEST_F(FileModesTest, ANewDatabaseAndItsCompanionsAre0600) {
  std::string path = dir_.File(".strata/state.db");
  auto store = OpenOrDie(Options(path, &env_));
  ASSERT_TRUE(store);
  ApplyResources(*store, "eks", {Resource("aws_vpc.main")});
  for (const char* suffix : {"", "-wal", "-shm"}) {  // WAL mode: both exist while it is open
    ASSERT_TRUE(std::filesystem::exists(path + suffix)) << suffix;
    EXPECT_EQ(ModeOf(path + suffix), 0600u) << suffix;
  }
}

TEST_F(FileModesTest, AWiderDatabaseIsTightenedByAWriterNotByAReader) {
  std::string path = dir_.File("state.db");
  OpenOrDie(Options(path, &env_)).reset();
  ::chmod(path.c_str(), 0664);
  {
    std::ofstream(path + "-wal");  // an empty log left behind, as wide as the file was
    ::chmod((path + "-wal").c_str(), 0664);
  }
  OpenOrDie(ReadOnly(path)).reset();
  EXPECT_EQ(ModeOf(path), 0664u);
  auto store = OpenOrDie(Options(path, &env_));
  EXPECT_EQ(ModeOf(path), 0600u);
  ASSERT_TRUE(std::filesystem::exists(path + "-wal"));  // the open WAL database keeps its log
  EXPECT_EQ(ModeOf(path + "-wal"), 0600u);
}

TEST_F(FileModesTest, AFileMadeReadOnlyStaysReadOnly) {
  std::string path = dir_.File("state.db");
  OpenOrDie(Options(path, &env_)).reset();
  ::chmod(path.c_str(), 0400);
  SqliteStateStore::Open(Options(path, &env_));  // may fail for a user other than root
  EXPECT_EQ(ModeOf(path), 0400u);
}

TEST_F(FileModesTest, ReadingAStateThatDoesNotExistCreatesNothing) {
  std::string path = dir_.File(".strata/state.db");
  auto store = OpenOrDie(ReadOnly(path));
  ASSERT_TRUE(store);
  auto stages = store->ListStages();
  ASSERT_TRUE(stages.ok()) << stages.status().message();
  EXPECT_TRUE(stages->empty());
  EXPECT_FALSE(std::filesystem::exists(dir_.File(".strata")));
  EXPECT_FALSE(store->TryLock({"eks", "apply"}).ok());  // an empty state, not a writable one
}

TEST_F(FileModesTest, AReadOnlyStoreReadsAndRefusesWrites) {
  std::string path = dir_.File("state.db");
  {
    auto writer = OpenOrDie(Options(path, &env_));
    ApplyResources(*writer, "eks", {Resource("aws_vpc.main")}, std::vector<OutputState>{{"id", Value::String("vpc-1")}});
  }
  std::string before = ReadFileBytes(path);
  auto store = OpenOrDie(ReadOnly(path));
  ASSERT_TRUE(store);
  auto stage = store->LoadStage("eks");
  ASSERT_TRUE(stage.ok()) << stage.status().message();
  EXPECT_EQ(stage->resources.size(), 1u);
  auto outputs = store->LoadOutputs("eks");
  ASSERT_TRUE(outputs.ok());
  EXPECT_EQ(outputs->at("id").value, Value::String("vpc-1"));
  auto lock = store->TryLock({"eks", "apply"});
  ASSERT_FALSE(lock.ok());
  EXPECT_NE(lock.status().message().find("cannot be written"), std::string::npos) << lock.status().message();
  store.reset();
  EXPECT_EQ(ReadFileBytes(path), before);
}

TEST_F(FileModesTest, AnOlderSchemaIsNotMigratedByAReader) {
  std::string path = dir_.File("state.db");
  {
    auto db = sqlite::Database::Open(path, 1000);
    db->Exec(std::string(sqlite::MigrationSql(1)) + "PRAGMA user_version=1;");
  }
  auto store = SqliteStateStore::Open(ReadOnly(path));
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("needs upgrading"), std::string::npos) << store.status().message();
  auto db = sqlite::Database::Open(path, 1000, sqlite::Access::ReadOnly);
  EXPECT_EQ(db->QueryInt("PRAGMA user_version"), 1);
}

}  // namespace
}  // namespace strata::state
