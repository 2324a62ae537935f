// CurlTransport against a local server: methods, headers, bodies, concurrency with
// connection reuse, timeouts and refused connections.

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "providers/aws/http/curl_transport.h"
#include "test_support.h"

namespace strata::aws {
namespace {

TEST(CurlTransportTest, RoundTripsMethodHeadersAndBody) {
  testing::LocalServer server;
  server.server().Put("/echo", [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Got-Header", req.get_header_value("X-Custom"));
    res.set_header("X-Content-Type", req.get_header_value("Content-Type"));
    res.status = 201;
    res.set_content("body:" + req.body, "text/plain");
  });
  server.Start();
  CurlTransport transport;
  HttpRequest request;
  request.method = "PUT";
  request.url = server.url() + "/echo";
  request.headers = {{"X-Custom", "v1"}};
  request.body = "hello";
  TransportResult r = transport.Send(request);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.response().status, 201);
  EXPECT_EQ(r.response().body, "body:hello");
  EXPECT_EQ(FindHeader(r.response().headers, "x-got-header").value_or(""), "v1");
  // No curl default form content type sneaks in.
  EXPECT_EQ(FindHeader(r.response().headers, "x-content-type").value_or("?"), "");
}

TEST(CurlTransportTest, ConcurrentRequestsReuseConnections) {
  testing::LocalServer server;
  std::mutex mu;
  std::set<int> client_ports;
  server.server().set_keep_alive_max_count(1000);  // httplib closes after 5 by default
  server.server().Get("/n", [&](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard lock(mu);
      client_ports.insert(req.remote_port);
    }
    res.set_content(req.get_param_value("i"), "text/plain");
  });
  server.Start();
  CurlTransport transport;
  constexpr int kThreads = 4, kPerThread = 25;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string id = std::to_string(t * 1000 + i);
        auto r = transport.Send(HttpRequest{"GET", server.url() + "/n?i=" + id, {}, "",
                                            std::chrono::seconds(5), std::chrono::seconds(5)});
        if (r.ok() && r.response().status == 200 && r.response().body == id) ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok, kThreads * kPerThread);
  // 100 requests over far fewer connections: handles (and their connections) are reused.
  EXPECT_LE(client_ports.size(), size_t(2 * kThreads));
}

TEST(CurlTransportTest, TimeoutIsReported) {
  testing::LocalServer server;
  server.server().Get("/slow", [](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    res.set_content("late", "text/plain");
  });
  server.Start();
  CurlTransport transport;
  auto r = transport.Send(HttpRequest{"GET", server.url() + "/slow", {}, "",
                                      std::chrono::milliseconds(100), std::chrono::milliseconds(100)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, TransportError::Kind::Timeout);
}

TEST(CurlTransportTest, RefusedConnectionIsAConnectError) {
  std::string url;
  {
    testing::LocalServer closed;
    closed.Start();
    url = closed.url();
  }
  CurlTransport transport;
  auto r = transport.Send(HttpRequest{"GET", url + "/", {}, "", std::chrono::seconds(2),
                                      std::chrono::seconds(2)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, TransportError::Kind::Connect);
}

}  // namespace
}  // namespace strata::aws
