#pragma once
// MotoServer: a moto_server process (https://github.com/getmoto/moto) on 127.0.0.1 and a
// free port, started and stopped by the test. It emulates the AWS APIs the aws provider's
// resource tests need; the provider reaches it only through its `endpoints` setting.

#include <httplib.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace strata::aws::testing {

class MotoServer {
 public:
  ~MotoServer() { Stop(); }

  //! moto_server on PATH, else the image's pyenv shim; "" when there is none.
  static std::string FindBinary() {
    std::stringstream path(std::getenv("PATH") ? std::getenv("PATH") : "");
    std::vector<std::string> candidates;
    for (std::string dir; std::getline(path, dir, ':');) candidates.push_back(dir + "/moto_server");
    candidates.push_back("/root/.pyenv/shims/moto_server");
    for (const std::string& c : candidates) {
      if (!c.empty() && ::access(c.c_str(), X_OK) == 0) return c;
    }
    return "";
  }

  //! Starts moto and waits (up to 60 s) until it answers. False, with `error()` set, when
  //! it could not be started.
  bool Start() {
    std::string binary = FindBinary();
    if (binary.empty()) return Fail("moto_server not found on PATH nor at /root/.pyenv/shims");
    port_ = FreePort();
    if (!Spawn(binary)) return Fail("could not spawn " + binary);
    return WaitUntilAnswering();
  }

  void Stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::string& error() const { return error_; }

 private:
  bool Fail(std::string why) {
    error_ = std::move(why);
    return false;
  }

  static int FreePort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
  }

  bool Spawn(const std::string& binary) {
    std::vector<std::string> env_strings = {"AWS_ACCESS_KEY_ID=testing",
                                            "AWS_SECRET_ACCESS_KEY=testing"};
    for (char** e = environ; *e; ++e) {
      std::string entry = *e;
      if (entry.rfind("AWS_ACCESS_KEY_ID=", 0) && entry.rfind("AWS_SECRET_ACCESS_KEY=", 0))
        env_strings.push_back(entry);
    }
    std::vector<char*> envp;
    for (std::string& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string port = std::to_string(port_);
    std::vector<std::string> args = {binary, "-H", "127.0.0.1", "-p", port};
    std::vector<char*> argv;
    for (std::string& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) pid_ = -1;
    return rc == 0;
  }

  bool WaitUntilAnswering() {
    httplib::Client client("127.0.0.1", port_);
    client.set_connection_timeout(1);
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return Fail("moto_server exited during startup (status " + std::to_string(status) + ")");
      }
      if (auto res = client.Get("/moto-api/")) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    Stop();
    return Fail("moto_server did not answer on " + url() + " within 60 s");
  }

  pid_t pid_ = -1;
  int port_ = 0;
  std::string error_;
};

}  // namespace strata::aws::testing
