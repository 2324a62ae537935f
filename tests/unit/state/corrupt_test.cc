#include <filesystem>

#include <gtest/gtest.h>

#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Builds a real database with some state, checkpointed into the main file, and returns its bytes.
std::string MakeDatabase(const std::string& path, FakeEnvironment& env) {
  {
    auto store = OpenOrDie(Options(path, &env));
    std::vector<ResourceInstanceState> rs;
    for (int i = 0; i < 200; ++i) {
      rs.push_back(Resource("aws_vpc.v" + std::to_string(i), Value::Object({{"pad", Value::String(std::string(200, 'x'))}})));
    }
    ApplyResources(*store, "eks", rs);
  }
  // Closing the last connection checkpoints the WAL into the file.
  return ReadFileBytes(path);
}

// Any store call must fail cleanly (a status), never crash or hang.
StateStatus Probe(const std::string& path, FakeEnvironment& env) {
  auto store = SqliteStateStore::Open(Options(path, &env));
  if (!store.ok()) return store.status();
  auto stage = (*store)->LoadStage("eks", {});
  if (!stage.ok()) return stage.status();
  auto history = (*store)->History("eks");
  if (!history.ok()) return history.status();
  return (*store)->CheckIntegrity();
}

TEST(CorruptTest, NotADatabase) {
  TempDir dir;
  FakeEnvironment env;
  WriteBytes(dir.File("state.db"), "this is a text file, not a database\n");
  auto store = SqliteStateStore::Open(Options(dir.File("state.db"), &env));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StateCode::Corrupt);
  EXPECT_NE(store.status().message().find("not a SQLite database"), std::string::npos);
}

TEST(CorruptTest, TruncatedFileGivesAClearError) {
  TempDir dir;
  FakeEnvironment env;
  std::string bytes = MakeDatabase(dir.File("good.db"), env);
  ASSERT_GT(bytes.size(), 16384u);
  for (size_t keep : {size_t{100}, size_t{4096}, bytes.size() / 2, bytes.size() - 4096}) {
    std::string path = dir.File("cut" + std::to_string(keep) + ".db");
    WriteBytes(path, bytes.substr(0, keep));
    StateStatus s = Probe(path, env);
    EXPECT_FALSE(s.ok()) << "kept " << keep << " bytes";
    EXPECT_TRUE(s.code() == StateCode::Corrupt) << keep << ": " << StateCodeName(s.code()) << ": " << s.message();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  }
}

TEST(CorruptTest, ScribbledPagesGiveAClearError) {
  TempDir dir;
  FakeEnvironment env;
  std::string bytes = MakeDatabase(dir.File("good.db"), env);
  int failures = 0;
  for (size_t page = 1; page * 4096 < bytes.size(); ++page) {
    std::string damaged = bytes;
    for (size_t i = page * 4096; i < page * 4096 + 64 && i < damaged.size(); ++i) damaged[i] = '\xA5';
    std::string path = dir.File("scribbled" + std::to_string(page) + ".db");
    WriteBytes(path, damaged);
    StateStatus s = Probe(path, env);
    if (!s.ok()) {
      ++failures;
      EXPECT_EQ(s.code(), StateCode::Corrupt) << page << ": " << s.message();
    }
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace strata::state
