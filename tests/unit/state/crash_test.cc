// kill -9 at random instants while a process applies: the database must always open, pass
// PRAGMA integrity_check, hold every completed operation, and name the one in flight.

#include <signal.h>
#include <sys/wait.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include <cstdio>

#include <gtest/gtest.h>

#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

void Say(int fd, const std::string& line) {
  std::string s = line + "\n";
  ssize_t ignored = write(fd, s.data(), s.size());
  (void)ignored;
}

SqliteStoreOptions WriterOptions(const std::string& path, int iteration) {
  SqliteStoreOptions o = Options(path, &StateEnvironment::System());
  o.durability = iteration % 2 == 0 ? Durability::Full : Durability::Normal;
  o.history_retention = 0;  // keep all, so that the history can be checked against the serial
  return o;
}

// The child: reconcile what an earlier writer left pending, then create resources one
// checkpoint at a time, committing every few operations, until killed.
[[noreturn]] void RunWriter(const std::string& path, int iteration, int fd) {
  auto opened = SqliteStateStore::Open(WriterOptions(path, iteration));
  if (!opened.ok()) _exit(10);
  SqliteStateStore& store = **opened;
  auto lock = store.Lock({"eks", "apply", std::chrono::seconds(10)});
  if (!lock.ok()) _exit(11);
  Say(fd, "L");
  auto cs = store.BeginChangeSet(lock->id, "eks", "apply");
  if (!cs.ok()) _exit(12);
  for (const auto& op : cs->pending) {
    if (!store.CompleteOperation(*cs, op.id, Resource(op.addr.ToString())).ok()) _exit(13);
  }
  for (int k = 0;; ++k) {
    std::string address = "aws_instance.i" + std::to_string(iteration) + "_" + std::to_string(k);
    std::string token = "token-" + std::to_string(iteration) + "-" + std::to_string(k);
    Say(fd, "B " + address + " " + token);
    auto op = store.BeginOperation(*cs, {Addr(address), OperationAction::Create, "aws", token});
    if (!op.ok()) _exit(14);
    ResourceInstanceState r = Resource(address, Value::Object({{"id", Value::String("i-" + token)},
                                                                {"password", Value::String("pw").MarkSensitive()}}));
    if (!store.CompleteOperation(*cs, *op, r).ok()) _exit(15);
    Say(fd, "C " + address);
    if (k % 4 == 3) {
      auto commit = store.CommitChangeSet(*cs, std::vector<OutputState>{{"count", Value::Number(k), false}});
      if (!commit.ok()) _exit(16);
      cs = store.BeginChangeSet(lock->id, "eks", "apply");
      if (!cs.ok()) _exit(17);
    }
  }
}

// Reads the writer's announcements into `log` until it begins operation `k` (its k+1-th
// "B" line) and then sleeps a random part of the time between the last two "B" lines:
// the kill then falls inside operation k whatever the machine's speed. Gives up after
// 30 s without news (the writer is stuck or died; the caller's checks will say so).
void WaitForOperation(int fd, std::string& log, int k, std::mt19937& rng) {
  using Clock = std::chrono::steady_clock;
  char buf[4096];
  Clock::time_point previous_begin{}, last_begin{};
  size_t scanned = 0;
  int begun = 0;
  struct pollfd pfd{fd, POLLIN, 0};
  while (begun <= k && poll(&pfd, 1, 30000) > 0) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return;
    log.append(buf, static_cast<size_t>(n));
    for (size_t eol; (eol = log.find('\n', scanned)) != std::string::npos; scanned = eol + 1) {
      if (log.compare(scanned, 2, "B ") != 0) continue;
      previous_begin = last_begin;
      last_begin = Clock::now();
      ++begun;
    }
  }
  if (begun <= k || previous_begin == Clock::time_point{}) return;
  auto gap = std::chrono::duration_cast<std::chrono::microseconds>(last_begin - previous_begin).count();
  usleep(static_cast<useconds_t>(std::uniform_int_distribution<long>(0, std::max<long>(gap, 1))(rng)));
}

int Iterations() {
  if (const char* v = std::getenv("STRATA_CRASH_ITERATIONS")) return std::atoi(v);
  return 300;
}

TEST(CrashTest, KillNineAtRandomMomentsLeavesAConsistentDatabase) {
  TempDir dir;
  std::string path = dir.File("state.db");
  unsigned seed = std::random_device{}();
  std::mt19937 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  int iterations = Iterations();
  int killed_in_flight = 0, completed_total = 0;
  std::set<std::string> announced_completed;
  // An operation left pending by an earlier writer, if the writers since died before
  // reconciling it.
  std::string carried_address, carried_token;

  for (int it = 0; it < iterations; ++it) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    std::fflush(nullptr);  // the child must not flush our buffered output again
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      RunWriter(path, it, fds[1]);
    }
    close(fds[1]);
    std::string log;
    char buf[4096];
    if (it % 4 == 0) {
      // One kill in four lands at any instant, start-up included.
      usleep(std::uniform_int_distribution<int>(0, 12000)(rng));
    } else {
      // The others aim at the writer's own pace, whatever the machine's (sanitizers, a
      // loaded or slow disk): wait until it announces operation k, then kill within the
      // time that operation k-1 took, so the kill lands among operations, k of them done.
      int target = std::uniform_int_distribution<int>(1, 6)(rng);
      WaitForOperation(fds[0], log, target, rng);
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself with " << WEXITSTATUS(status);

    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) log.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    bool locked = false;
    std::string last_begun_address, last_begun_token;
    std::istringstream lines(log);
    for (std::string kind, line; std::getline(lines, line);) {
      std::istringstream words(line);
      words >> kind;
      if (kind == "L") locked = true;
      if (kind == "B") words >> last_begun_address >> last_begun_token;
      if (kind == "C") {
        std::string a;
        words >> a;
        announced_completed.insert(a);
      }
    }

    FakeEnvironment env;  // the check runs "on the same host": the writer's pid is gone
    env.host = StateEnvironment::System().Hostname();
    env.liveness = ProcessLiveness::Gone;
    auto store = OpenOrDie(WriterOptions(path, it));
    ASSERT_TRUE(store) << "iteration " << it;
    ASSERT_TRUE(store->CheckIntegrity().ok()) << "iteration " << it;

    auto stage = store->LoadStage("eks", {});
    ASSERT_TRUE(stage.ok()) << stage.status().message();
    auto pending = store->PendingOperations("eks");
    ASSERT_TRUE(pending.ok());
    ASSERT_LE(pending->size(), 1u) << "iteration " << it;
    if (last_begun_address.empty()) {
      last_begun_address = carried_address;
      last_begun_token = carried_token;
    }
    carried_address.clear();
    carried_token.clear();
    if (!pending->empty()) {
      // The operation in flight is the last one begun, with its token and a placeholder.
      const OperationRecord& op = (*pending)[0];
      carried_address = op.addr.ToString();
      carried_token = op.idempotency_token;
      EXPECT_EQ(op.addr.ToString(), last_begun_address) << "iteration " << it;
      EXPECT_EQ(op.idempotency_token, last_begun_token);
      const auto* r = stage->FindResource(op.addr);
      ASSERT_NE(r, nullptr);
      EXPECT_EQ(r->status, ResourceStatus::PendingCreate);
      EXPECT_EQ(r->idempotency_token, last_begun_token);
      ++killed_in_flight;
    }
    // Every completed operation survived, with its secret intact.
    for (const auto& address : announced_completed) {
      const auto* r = stage->FindResource(Addr(address));
      ASSERT_NE(r, nullptr) << address << " lost at iteration " << it;
      EXPECT_EQ(r->status, ResourceStatus::Created);
      EXPECT_EQ(r->attributes.AsMap().at("password").AsString(), "pw");
    }
    completed_total = static_cast<int>(announced_completed.size());
    // Every committed serial has its snapshot.
    auto history = store->History("eks");
    ASSERT_TRUE(history.ok());
    EXPECT_EQ(static_cast<int64_t>(history->size()), stage->serial);
    if (!history->empty()) {
      EXPECT_EQ((*history)[0].serial, stage->serial);
    }

    // The writer's lock is left behind (kill -9), and reported as stale.
    auto lock = store->CurrentLock("eks");
    ASSERT_TRUE(lock.ok());
    if (locked) {
      ASSERT_TRUE(lock->has_value());
    }
    if (lock->has_value()) {
      EXPECT_EQ((*lock)->pid, pid);
      auto checker = OpenOrDie([&] {
        auto o = WriterOptions(path, it);
        o.env = &env;
        return o;
      }());
      EXPECT_TRUE((*checker->CurrentLock("eks"))->stale);
      ASSERT_TRUE(store->ForceUnlock((*lock)->id).ok());
    }
  }
  // The random delays must have hit operations in flight, not only idle moments.
  EXPECT_GT(killed_in_flight, 0);
  EXPECT_GT(completed_total, 0);
  RecordProperty("in_flight_kills", killed_in_flight);
  RecordProperty("completed_operations", completed_total);
  std::printf("crash test: %d iterations, %d killed with an operation in flight, %d operations completed\n",
              iterations, killed_in_flight, completed_total);
}

}  // namespace
}  // namespace strata::state
