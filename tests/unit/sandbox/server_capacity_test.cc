// The sandbox takes an apply at -parallelism=50: its listening sockets queue at least 50
// connections (Debian's compiled cpp-httplib listens with a backlog of 5), and 50 clients
// that keep their connections open at once are all answered without waiting for a worker.

#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <vector>

#include <httplib.h>

#include "tests/unit/sandbox/server_test_support.h"

namespace strata::sandbox {
namespace {

using testing::StartSandbox;

constexpr int kParallelism = 50;

int PortOf(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

// The accept-queue limit of this process's socket listening on 127.0.0.1:`port`, or -1.
// For a listening socket, Linux reports its backlog in TCP_INFO's tcpi_sacked.
int ListenBacklog(int port) {
  DIR* fds = ::opendir("/proc/self/fd");
  if (!fds) return -1;
  int backlog = -1;
  while (dirent* entry = ::readdir(fds)) {
    int fd = std::atoi(entry->d_name);
    sockaddr_in address{};
    socklen_t length = sizeof address;
    int listening = 0;
    socklen_t flag_length = sizeof listening;
    if (fd <= 2 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
        address.sin_family != AF_INET || ntohs(address.sin_port) != port ||
        ::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &flag_length) != 0 || !listening)
      continue;
    tcp_info info{};
    socklen_t info_length = sizeof info;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &info_length) == 0) backlog = int(info.tcpi_sacked);
  }
  ::closedir(fds);
  return backlog;
}

TEST(SandboxCapacityTest, ListeningSocketsQueueFiftyConnections) {
  auto sandbox = StartSandbox();
  EXPECT_GE(ListenBacklog(sandbox->port()), kParallelism);
  EXPECT_GE(ListenBacklog(PortOf(sandbox->cluster_url())), kParallelism);
}

TEST(SandboxCapacityTest, FiftyKeptAliveConnectionsAreAnsweredAtOnce) {
  auto sandbox = StartSandbox();
  std::promise<void> go, done;
  std::shared_future<void> started = go.get_future().share(), finished = done.get_future().share();
  auto client = [&] {
    started.wait();
    auto begin = std::chrono::steady_clock::now();
    httplib::Client http("127.0.0.1", sandbox->port());
    http.set_keep_alive(true);  // as the provider's connections are: each holds a worker
    http.set_read_timeout(10, 0);
    auto response = http.Get("/");
    auto took = std::chrono::steady_clock::now() - begin;
    finished.wait();  // keep the connection open until every client has its answer
    return response ? took : std::chrono::steady_clock::duration::max();
  };
  std::vector<std::future<std::chrono::steady_clock::duration>> clients;
  for (int i = 0; i < kParallelism; ++i) clients.push_back(std::async(std::launch::async, client));
  go.set_value();
  std::vector<std::chrono::steady_clock::duration> took;
  // Answers come while every connection is still open; collect them before letting go.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline && sandbox->stats().calls < unsigned(kParallelism))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  done.set_value();
  for (auto& c : clients) took.push_back(c.get());
  for (size_t i = 0; i < took.size(); ++i) {
    // A connection left waiting for a worker would wait out another's keep-alive (5 s).
    EXPECT_LT(took[i], std::chrono::seconds(3)) << "client " << i;
  }
}

}  // namespace
}  // namespace strata::sandbox
