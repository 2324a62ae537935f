// Opening the store a second time in one process (the pipeline does, per stage) must leave
// the first connection's locks on the database file alone: POSIX locks belong to the
// process and go when any descriptor of the file is closed, so a stray open/close of
// state.db would let another process take itself for the last connection and delete the
// WAL under this one (seen as "disk I/O error" and a malformed database).

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

// In a child process (a lock held by this process is invisible to its own F_GETLK): does
// any process hold a lock on the byte range SQLite's shared locks use? SQLite's unix VFS
// takes them at its PENDING_BYTE (0x40000000) + 2, 510 bytes long.
bool AnotherProcessSeesASharedLock(const std::string& path) {
  pid_t child = fork();
  if (child == 0) {
    int fd = ::open(path.c_str(), O_RDWR);
    struct flock probe {};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    probe.l_start = 0x40000000 + 2;
    probe.l_len = 510;
    int rc = fd >= 0 ? ::fcntl(fd, F_GETLK, &probe) : -1;
    _exit(rc == 0 && probe.l_type != F_UNLCK ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(SecondConnectionTest, OpeningTheStoreAgainKeepsTheFirstConnectionsLocks) {
  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  auto first = OpenOrDie(Options(path, &env));
  ApplyResources(*first, "eks", {Resource("aws_vpc.main", Value::Object({}))});
  ASSERT_TRUE(AnotherProcessSeesASharedLock(path)) << "a WAL connection holds a shared lock while open";

  auto second = OpenOrDie(Options(path, &env));
  second.reset();
  EXPECT_TRUE(AnotherProcessSeesASharedLock(path)) << "the second open dropped the first connection's lock";
  EXPECT_TRUE(first->LoadStage("eks", {}).ok());
}

}  // namespace
}  // namespace strata::state
