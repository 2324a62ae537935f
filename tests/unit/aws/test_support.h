#pragma once
// Helpers shared by the AWS tests: reading the shared reference vectors and a local
// HTTP server (cpp-httplib) bound to 127.0.0.1 on an ephemeral port.

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

namespace strata::aws::testing {

inline std::filesystem::path SharedTestdata() {
  return std::filesystem::path(STRATA_SHARED_DIR) / "testdata";
}

inline std::string ReadFileOrEmpty(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

//! The parameters of a query-protocol request body ("Action=X&Filter.1.Name=y"), decoded.
inline std::map<std::string, std::string> FormParams(const std::string& body) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('&', start);
    if (end == std::string::npos) end = body.size();
    std::string pair = body.substr(start, end - start);
    size_t eq = pair.find('=');
    if (eq != std::string::npos) {
      out[httplib::detail::decode_url(pair.substr(0, eq), true)] = httplib::detail::decode_url(pair.substr(eq + 1), true);
    }
    start = end + 1;
  }
  return out;
}

//! An HTTP server on 127.0.0.1:<ephemeral>, running on its own thread for the test's
//! lifetime. Register handlers on server() before Start().
class LocalServer {
 public:
  LocalServer() = default;
  ~LocalServer() { Stop(); }

  httplib::Server& server() { return server_; }

  void Start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // The socket already listens after bind; wait for the accept loop anyway.
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void Stop() {
    if (thread_.joinable()) {
      server_.stop();
      thread_.join();
    }
  }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace strata::aws::testing
