#pragma once
// Shared helpers for the state store tests: a controllable environment, a temporary
// directory, and a store opener.

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "state/crypto/state_key.h"
#include "tests/unit/support/temp_dir.h"
#include "state/sqlite/sqlite_store.h"

namespace strata::state::testing {

//! The system environment with a settable clock, identity, process liveness and env vars.
class FakeEnvironment : public StateEnvironment {
 public:
  int64_t now = 1'700'000'000'000;
  std::string host = "test-host";
  std::string user = "tester";
  int64_t pid = 4242;
  ProcessLiveness liveness = ProcessLiveness::Alive;
  std::map<std::string, std::string> vars;
  int64_t slept = 0;

  int64_t NowMillis() override { return now; }
  void SleepMillis(int64_t millis) override {
    slept += millis;
    now += millis;
  }
  std::string RandomBytes(size_t n) override { return System().RandomBytes(n); }
  std::string Hostname() override { return host; }
  std::string UserName() override { return user; }
  int64_t Pid() override { return pid; }
  int64_t ProcessStartTime(int64_t) override { return 77; }
  ProcessLiveness CheckProcess(int64_t, int64_t) override { return liveness; }
  std::optional<std::string> Getenv(const std::string& name) override {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  }
};

//! A fresh directory under the test temp dir, removed at destruction.
using test_support::TempDir;

inline crypto::StateKey Key(const std::string& text) { return *crypto::ParseStateKey(text); }

inline SqliteStoreOptions Options(const std::string& path, StateEnvironment* env,
                                  std::optional<crypto::StateKey> key = std::nullopt) {
  SqliteStoreOptions o;
  o.path = path;
  o.env = env;
  o.keys.primary = std::move(key);
  o.durability = Durability::Normal;  // tests: fsync is not what they check
  return o;
}

inline std::unique_ptr<SqliteStateStore> OpenOrDie(const SqliteStoreOptions& options) {
  auto store = SqliteStateStore::Open(options);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return nullptr;
  return std::move(*store);
}

inline ResourceInstanceAddr Addr(const std::string& text) { return *ParseResourceInstanceAddr(text).addr; }

inline ResourceInstanceState Resource(const std::string& address, Value attributes = Value::Object({})) {
  ResourceInstanceState r;
  r.addr = Addr(address);
  r.provider = "aws";
  r.attributes = std::move(attributes);
  return r;
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

//! Applies `resources` as one change set under a fresh lock; returns the new serial.
inline int64_t ApplyResources(StateStore& store, const std::string& stage,
                              const std::vector<ResourceInstanceState>& resources,
                              std::optional<std::vector<OutputState>> outputs = std::nullopt) {
  auto lock = store.TryLock({stage, "apply"});
  EXPECT_TRUE(lock.ok()) << lock.status().message();
  auto cs = store.BeginChangeSet(lock->id, stage, "apply");
  EXPECT_TRUE(cs.ok()) << cs.status().message();
  for (const auto& r : resources) {
    auto op = store.BeginOperation(*cs, {r.addr, OperationAction::Create, r.provider, "tok-" + r.addr.ToString()});
    EXPECT_TRUE(op.ok()) << op.status().message();
    auto done = store.CompleteOperation(*cs, *op, r);
    EXPECT_TRUE(done.ok()) << done.message();
  }
  auto commit = store.CommitChangeSet(*cs, outputs);
  EXPECT_TRUE(commit.ok()) << commit.status().message();
  EXPECT_TRUE(store.Unlock(stage, lock->id).ok());
  return commit.ok() ? commit->serial : -1;
}

}  // namespace strata::state::testing
