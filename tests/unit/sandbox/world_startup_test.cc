// Starting a sandbox writes to its world only when the world is new: on an existing world
// its CA (certificate and private key) and its recorded cluster endpoint port stay byte for
// byte, whether sandboxes start one after the other, while another one serves the world,
// or at the same moment on a new world. The world's file is private (0600) whatever the
// umask.

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "sandbox/world.h"
#include "tests/unit/sandbox/server_test_support.h"

namespace strata::sandbox {
namespace {

using testing::StartSandbox;

// What a world records about itself that clients depend on.
struct Recorded {
  std::optional<std::string> ca_cert, ca_key, cluster_port;
  bool operator==(const Recorded&) const = default;
};

Recorded ReadRecorded(const std::string& path) {
  auto world = World::Open(path);
  return {world->Setting("cluster_ca_cert"), world->Setting("cluster_ca_key"), world->Setting("cluster_port")};
}

std::string Bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

unsigned ModeOf(const std::filesystem::path& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

class WorldStartupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("strata-world-startup-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    old_umask_ = ::umask(0);  // the widest: the world must be private all the same
  }
  void TearDown() override {
    ::umask(old_umask_);
    std::filesystem::remove_all(dir_);
  }

  SandboxSettings OnWorld(const std::string& name) {
    SandboxSettings settings;
    settings.state_path = (dir_ / name).string();
    return settings;
  }

  std::filesystem::path dir_;
  mode_t old_umask_ = 0;
};

TEST_F(WorldStartupTest, ARestartChangesNothingInTheWorld) {
  SandboxSettings settings = OnWorld("world.db");
  std::string ca, endpoint;
  {
    auto first = StartSandbox(settings);
    ca = first->ca_pem();
    endpoint = first->recorded_cluster_url();
    EXPECT_EQ(first->cluster_url(), endpoint);
  }
  Recorded recorded = ReadRecorded(settings.state_path);
  ASSERT_TRUE(recorded.ca_cert && recorded.ca_key && recorded.cluster_port);
  EXPECT_EQ(*recorded.ca_cert, ca);
  EXPECT_EQ(endpoint, "https://127.0.0.1:" + *recorded.cluster_port);
  std::string before = Bytes(settings.state_path);

  auto second = StartSandbox(settings);
  EXPECT_EQ(second->ca_pem(), ca);
  EXPECT_EQ(second->cluster_url(), endpoint);  // the port was free again: served there
  EXPECT_EQ(second->recorded_cluster_url(), endpoint);
  second->Stop();
  EXPECT_EQ(ReadRecorded(settings.state_path), recorded);
  EXPECT_EQ(Bytes(settings.state_path), before);  // not a byte written
  EXPECT_EQ(ModeOf(settings.state_path), 0600u);
}

TEST_F(WorldStartupTest, ASecondSandboxOnAServedWorldLeavesItAlone) {
  SandboxSettings settings = OnWorld("served.db");
  auto serving = StartSandbox(settings);
  Recorded recorded = ReadRecorded(settings.state_path);

  auto second = StartSandbox(settings);  // e.g. `plan -sandbox` while `sandbox serve` runs
  EXPECT_EQ(second->ca_pem(), serving->ca_pem());
  // The world's port is taken: the second serves elsewhere for its own lifetime, and names
  // (DescribeCluster) the endpoints the first one serves.
  EXPECT_NE(second->cluster_url(), serving->cluster_url());
  EXPECT_EQ(second->recorded_cluster_url(), serving->cluster_url());
  second->Stop();
  serving->Stop();
  EXPECT_EQ(ReadRecorded(settings.state_path), recorded);
  EXPECT_EQ(ModeOf(settings.state_path), 0600u);
}

TEST_F(WorldStartupTest, SandboxesStartingTogetherOnANewWorldShareOneCa) {
  for (int round = 0; round < 5; ++round) {
    SandboxSettings settings = OnWorld("new-" + std::to_string(round) + ".db");
    std::promise<void> go;
    std::shared_future<void> started = go.get_future().share();
    auto start = [&] {
      started.wait();
      auto sandbox = std::make_unique<Sandbox>(settings);
      std::string error;
      EXPECT_TRUE(sandbox->Start(error)) << error;
      return sandbox;
    };
    auto a = std::async(std::launch::async, start);
    auto b = std::async(std::launch::async, start);
    go.set_value();
    std::unique_ptr<Sandbox> first = a.get(), second = b.get();
    ASSERT_FALSE(first->ca_pem().empty());
    EXPECT_EQ(first->ca_pem(), second->ca_pem()) << "round " << round;
    EXPECT_EQ(first->recorded_cluster_url(), second->recorded_cluster_url()) << "round " << round;
    first->Stop();
    second->Stop();
    Recorded recorded = ReadRecorded(settings.state_path);
    ASSERT_TRUE(recorded.ca_cert && recorded.cluster_port);
    EXPECT_EQ(*recorded.ca_cert, first->ca_pem());
    EXPECT_EQ("https://127.0.0.1:" + *recorded.cluster_port, first->recorded_cluster_url());
    EXPECT_EQ(ModeOf(settings.state_path), 0600u);

    auto again = StartSandbox(settings);  // and a later start keeps what they agreed on
    EXPECT_EQ(again->ca_pem(), first->ca_pem());
    again->Stop();
    EXPECT_EQ(ReadRecorded(settings.state_path), recorded);
  }
}

TEST_F(WorldStartupTest, AskingToMoveTheClusterPortIsRefused) {
  SandboxSettings settings = OnWorld("moved.db");
  int recorded_port = 0;
  {
    auto first = StartSandbox(settings);
    recorded_port = std::stoi(first->recorded_cluster_url().substr(first->recorded_cluster_url().rfind(':') + 1));
  }
  Recorded recorded = ReadRecorded(settings.state_path);
  settings.cluster_port = recorded_port == 65000 ? 65001 : 65000;
  Sandbox moved(settings);
  std::string error;
  EXPECT_FALSE(moved.Start(error));
  EXPECT_NE(error.find("on port " + std::to_string(recorded_port)), std::string::npos) << error;
  EXPECT_NE(error.find("leave --cluster-port out"), std::string::npos) << error;
  EXPECT_EQ(ReadRecorded(settings.state_path), recorded);

  settings.cluster_port = recorded_port;  // asking for the recorded one is fine
  auto same = StartSandbox(settings);
  EXPECT_EQ(same->recorded_cluster_url(), "https://127.0.0.1:" + std::to_string(recorded_port));
}

TEST_F(WorldStartupTest, CompanionFilesArePrivateToo) {
  SandboxSettings settings = OnWorld("companions.db");
  auto sandbox = StartSandbox(settings);  // WAL mode: -wal and -shm exist while it runs
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::filesystem::path file = settings.state_path + suffix;
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    EXPECT_EQ(ModeOf(file), 0600u) << file;
  }
}

}  // namespace
}  // namespace strata::sandbox
