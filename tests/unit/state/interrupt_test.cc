// SIGINT / SIGTERM / exit() release the stage lock (each case in a child process, since the
// handler blocks signals process-wide).

#include "state/interrupt.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include <cstdio>

#include <gtest/gtest.h>

#include "state/lock_guard.h"
#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

enum class Mode { ExitAtOnce, Graceful, CallsExit };

std::atomic<bool> g_stop{false};

// Returns the child's exit status after `signal` (0: none sent).
int RunChild(const std::string& path, Mode mode, int signal) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::fflush(nullptr);  // the child must not flush our buffered output again
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    InterruptOptions options;
    if (mode == Mode::Graceful) {
      options.on_first_signal = [](int) {
        g_stop = true;
        return true;
      };
    }
    InstallInterruptHandler(options);
    int code = 0;
    {
      auto store = SqliteStateStore::Open(Options(path, &StateEnvironment::System()));
      if (!store.ok()) _exit(20);
      auto lock = ScopedStageLock::Acquire(**store, {"eks", "apply"});
      if (!lock.ok()) _exit(21);
      if (mode == Mode::CallsExit) std::exit(5);  // no unwinding: the atexit hook must release
      ssize_t ignored = write(fds[1], "R", 1);
      (void)ignored;
      for (int i = 0; i < 500 && !g_stop; ++i) usleep(10000);
      code = g_stop ? 3 : 22;
    }  // graceful: the normal path releases the lock
    _exit(code);
  }
  close(fds[1]);
  char c;
  if (mode != Mode::CallsExit) {
    EXPECT_EQ(read(fds[0], &c, 1), 1);
    kill(pid, signal);
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

class InterruptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FakeEnvironment env;
    OpenOrDie(Options(path, &env));  // schema created before forking; closed again
  }
  bool Locked() {
    FakeEnvironment env;
    return OpenOrDie(Options(path, &env))->CurrentLock("eks")->has_value();
  }
  TempDir dir;
  std::string path = dir.File("state.db");
};

TEST_F(InterruptTest, SigtermReleasesTheLockAndExits143) {
  EXPECT_EQ(RunChild(path, Mode::ExitAtOnce, SIGTERM), 143);
  EXPECT_FALSE(Locked());
}

TEST_F(InterruptTest, SigintReleasesTheLockAndExits130) {
  EXPECT_EQ(RunChild(path, Mode::ExitAtOnce, SIGINT), 130);
  EXPECT_FALSE(Locked());
}

TEST_F(InterruptTest, GracefulStopReleasesThroughTheNormalPath) {
  EXPECT_EQ(RunChild(path, Mode::Graceful, SIGINT), 3);
  EXPECT_FALSE(Locked());
}

TEST_F(InterruptTest, ExitWithoutUnwindingReleasesTheLock) {
  EXPECT_EQ(RunChild(path, Mode::CallsExit, 0), 5);
  EXPECT_FALSE(Locked());
}

}  // namespace
}  // namespace strata::state
