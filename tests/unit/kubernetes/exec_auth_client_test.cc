// An ApiClient authenticated by an exec plugin: the token cached until a minute before its
// expirationTimestamp, the plugin run once more after a 401 and the call retried once, a
// plugin's client certificate given to a new transport, a plugin failure as the call's
// error — and one real plugin, a shell script run through posix_spawn.
#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "engine/base/time_format.h"
#include "fake_transport.h"
#include "providers/kubernetes/client/api_client.h"
#include "providers/kubernetes/client/credential_source.h"
#include "tests/unit/support/temp_dir.h"

namespace strata::kubernetes {
namespace {

using testing::FakeTransport;
using namespace std::chrono_literals;

const char* kV1 = "client.authentication.k8s.io/v1";
const char* kRoute = "GET /clusters/demo/api/v1/namespaces";

base::Clock::TimePoint At(const char* rfc3339) {
  base::Clock::TimePoint t;
  EXPECT_TRUE(base::ParseRfc3339(rfc3339, &t));
  return t;
}

ExecConfig Plugin() {
  ExecConfig exec;
  exec.api_version = kV1;
  exec.command = "get-token";
  exec.interactive_mode = "Never";
  return exec;
}

KubeConnection Connection() {
  KubeConnection c;
  c.server = "https://127.0.0.1:6443/clusters/demo";
  return c;
}

ProcessResult Printed(const std::string& stdout_text) {
  ProcessResult r;
  r.started = true;
  r.exit_code = 0;
  r.stdout_text = stdout_text;
  return r;
}

// A plugin that answers token-1, token-2, ... (expiring at `expiry` when given).
struct CountingPlugin {
  std::shared_ptr<FakeProcessRunner> runner = std::make_shared<FakeProcessRunner>();
  std::shared_ptr<base::FakeClock> clock = std::make_shared<base::FakeClock>(At("2030-01-01T00:00:00Z"));
  int runs = 0;
  std::string expiry;

  explicit CountingPlugin(std::string expires = "") : expiry(std::move(expires)) {
    runner->respond = [this](const ProcessSpec&) {
      ++runs;
      std::string status = R"({"token":"token-)" + std::to_string(runs) + "\"";
      if (!expiry.empty()) status += R"(,"expirationTimestamp":")" + expiry + "\"";
      return Printed(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":)" + status +
                     "}}");
    };
  }
  std::shared_ptr<ExecCredentialSource> Source() {
    return std::make_shared<ExecCredentialSource>(Plugin(), Connection(), runner, clock);
  }
};

RetryPolicy FastRetries() {
  RetryPolicy r;
  r.base_delay = 1ms;
  r.max_delay = 5ms;
  return r;
}

std::string BearerOf(const aws::HttpRequest& request) {
  return aws::FindHeader(request.headers, "Authorization").value_or("");
}

const char* kUnauthorized =
    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})";

TEST(ExecCredentialSourceTest, CachesTheTokenUntilAMinuteBeforeItExpires) {
  CountingPlugin plugin("2030-01-01T00:15:00Z");
  auto source = plugin.Source();
  OperationContext ctx;
  EXPECT_EQ(source->Get(ctx)->token, "token-1");
  plugin.clock->Advance(13min + 59s);
  EXPECT_EQ(source->Get(ctx)->token, "token-1") << "61 s before expiry: still good";
  plugin.clock->Advance(1s);
  EXPECT_EQ(source->Get(ctx)->token, "token-2") << "60 s before expiry: fetched anew";
  EXPECT_EQ(plugin.runs, 2);
}

TEST(ExecCredentialSourceTest, WithoutExpiryTheTokenIsKeptUntilRejected) {
  CountingPlugin plugin;
  auto source = plugin.Source();
  OperationContext ctx;
  Credential first = *source->Get(ctx);
  plugin.clock->Advance(24h * 365);
  EXPECT_EQ(source->Get(ctx)->token, "token-1");
  EXPECT_TRUE(source->Rejected(first));
  EXPECT_EQ(source->Get(ctx)->token, "token-2");
  EXPECT_TRUE(source->Rejected(first)) << "a stale rejection keeps the newer credential";
  EXPECT_EQ(source->Get(ctx)->token, "token-2");
  EXPECT_EQ(plugin.runs, 2);
}

TEST(ExecAuthApiClientTest, SendsThePluginsTokenAndRunsItOncePerExpiry) {
  CountingPlugin plugin("2030-01-01T00:15:00Z");
  auto transport = std::make_shared<FakeTransport>();
  transport->Answer(kRoute, 200, R"({"kind":"NamespaceList"})");
  ApiClient client(Connection(), transport, FastRetries(), ClientAuth{plugin.Source(), nullptr});
  OperationContext ctx;
  ASSERT_TRUE(client.Call(ctx, GetRequest("/api/v1/namespaces")).ok());
  ASSERT_TRUE(client.Call(ctx, GetRequest("/api/v1/namespaces")).ok());
  plugin.clock->Advance(15min);
  ASSERT_TRUE(client.Call(ctx, GetRequest("/api/v1/namespaces")).ok());
  auto sent = transport->Requests();
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(BearerOf(sent[0]), "Bearer token-1");
  EXPECT_EQ(BearerOf(sent[1]), "Bearer token-1");
  EXPECT_EQ(BearerOf(sent[2]), "Bearer token-2");
  EXPECT_EQ(plugin.runs, 2);
}

TEST(ExecAuthApiClientTest, A401RunsThePluginOnceMoreAndRetriesTheCallOnce) {
  CountingPlugin plugin;
  auto transport = std::make_shared<FakeTransport>();
  transport->Answer(kRoute, 401, kUnauthorized);
  transport->Answer(kRoute, 200, R"({"kind":"NamespaceList"})");
  ApiClient client(Connection(), transport, FastRetries(), ClientAuth{plugin.Source(), nullptr});
  OperationContext ctx;
  auto answer = client.Call(ctx, GetRequest("/api/v1/namespaces"));
  ASSERT_TRUE(answer.ok()) << answer.error().Describe();
  auto sent = transport->Requests();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(BearerOf(sent[0]), "Bearer token-1");
  EXPECT_EQ(BearerOf(sent[1]), "Bearer token-2");
  EXPECT_EQ(plugin.runs, 2);
}

TEST(ExecAuthApiClientTest, ASecond401IsTheCallsError) {
  CountingPlugin plugin;
  auto transport = std::make_shared<FakeTransport>();
  transport->Answer(kRoute, 401, kUnauthorized);
  ApiClient client(Connection(), transport, FastRetries(), ClientAuth{plugin.Source(), nullptr});
  auto answer = client.Call(OperationContext{}, GetRequest("/api/v1/namespaces"));
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().http_status, 401);
  EXPECT_EQ(transport->Calls(kRoute), 2);
  EXPECT_EQ(plugin.runs, 2);
}

TEST(ExecAuthApiClientTest, AStaticTokenIsNotRetriedAfter401) {
  auto transport = std::make_shared<FakeTransport>();
  transport->Answer(kRoute, 401, kUnauthorized);
  KubeConnection c = Connection();
  c.token = "static";
  ApiClient client(c, transport, FastRetries());
  auto answer = client.Call(OperationContext{}, GetRequest("/api/v1/namespaces"));
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(transport->Calls(kRoute), 1);
  EXPECT_EQ(BearerOf(transport->Requests().at(0)), "Bearer static");
}

TEST(ExecAuthApiClientTest, APluginFailureIsTheCallsErrorAndNothingIsSent) {
  auto runner = std::make_shared<FakeProcessRunner>();
  runner->respond = [](const ProcessSpec&) {
    ProcessResult r;
    r.started = true;
    r.exit_code = 1;
    r.stderr_text = "Unable to locate credentials. You can configure credentials by running \"aws configure\".\n";
    return r;
  };
  auto transport = std::make_shared<FakeTransport>();
  auto source = std::make_shared<ExecCredentialSource>(Plugin(), Connection(), runner,
                                                       std::make_shared<base::SystemClock>());
  ApiClient client(Connection(), transport, FastRetries(), ClientAuth{source, nullptr});
  auto answer = client.Call(OperationContext{}, GetRequest("/api/v1/namespaces"));
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().http_status, 0);
  EXPECT_NE(answer.error().Describe().find("failed with exit code 1. The end of its stderr:\n  Unable to locate"),
            std::string::npos)
      << answer.error().Describe();
  EXPECT_TRUE(transport->Requests().empty());
  EXPECT_EQ(runner->Calls().size(), 1u) << "not retried: running it again would fail the same way";
}

TEST(ExecAuthApiClientTest, APluginsNewClientCertificateGetsANewTransport) {
  auto runner = std::make_shared<FakeProcessRunner>();
  int runs = 0;
  runner->respond = [&runs](const ProcessSpec&) {
    ++runs;
    return Printed(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":)"
                   R"({"clientCertificateData":"CERT )" +
                   std::to_string(runs) + R"(","clientKeyData":"KEY )" + std::to_string(runs) + R"("}})");
  };
  auto first = std::make_shared<FakeTransport>();
  first->Answer(kRoute, 401, kUnauthorized);
  auto second = std::make_shared<FakeTransport>();
  second->Answer(kRoute, 200, "{}");
  std::vector<KubeConnection> built;
  TransportFactory factory = [&](const KubeConnection& c) {
    built.push_back(c);
    return second;
  };
  KubeConnection c = Connection();
  c.client_certificate_pem = "CERT 1";  // what the provider's first run gave the transport
  c.client_key_pem = "KEY 1";
  auto source = std::make_shared<ExecCredentialSource>(Plugin(), c, runner, std::make_shared<base::SystemClock>());
  ApiClient client(c, first, FastRetries(), ClientAuth{source, factory});
  auto answer = client.Call(OperationContext{}, GetRequest("/api/v1/namespaces"));
  ASSERT_TRUE(answer.ok()) << answer.error().Describe();
  EXPECT_EQ(first->Calls(kRoute), 1);
  EXPECT_EQ(second->Calls(kRoute), 1);
  ASSERT_EQ(built.size(), 1u);
  EXPECT_EQ(built[0].client_certificate_pem, "CERT 2");
  EXPECT_EQ(built[0].client_key_pem, "KEY 2");
  EXPECT_EQ(built[0].server, "https://127.0.0.1:6443/clusters/demo");
  EXPECT_TRUE(aws::FindHeader(second->Requests().at(0).headers, "Authorization").value_or("").empty());
}

TEST(ExecAuthApiClientTest, ARealScriptPluginRunsThroughPosixSpawn) {
  test_support::TempDir dir;
  std::string seen = dir.File("exec-info.json");
  std::string script = dir.Write("get-token.sh", "#!/bin/sh\n"
                                                 "printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"$SEEN\"\n"
                                                 "echo 'about to expire soon' >&2\n"
                                                 "cat <<EOF\n"
                                                 "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\n"
                                                 " \"kind\":\"ExecCredential\",\n"
                                                 " \"status\":{\"token\":\"from-$1-$PROFILE\"}}\n"
                                                 "EOF\n");
  ::chmod(script.c_str(), 0755);
  ExecConfig exec = Plugin();
  exec.command = script;
  exec.args = {"script"};
  exec.env = {{"SEEN", seen}, {"PROFILE", "dev"}};
  auto source = std::make_shared<ExecCredentialSource>(exec, Connection(), PosixProcessRunner(),
                                                       std::make_shared<base::SystemClock>());
  auto transport = std::make_shared<FakeTransport>();
  transport->Answer(kRoute, 200, "{}");
  ApiClient client(Connection(), transport, FastRetries(), ClientAuth{source, nullptr});
  std::vector<std::string> logs;
  OperationContext ctx;
  ctx.logger = [&logs](LogLevel, const std::string& line) { logs.push_back(line); };
  auto answer = client.Call(ctx, GetRequest("/api/v1/namespaces"));
  ASSERT_TRUE(answer.ok()) << answer.error().Describe();
  EXPECT_EQ(BearerOf(transport->Requests().at(0)), "Bearer from-script-dev");
  std::ifstream in(seen);
  std::string info((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(info, R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}})");
  bool warned = false;
  for (const auto& line : logs) warned |= line.find("about to expire soon") != std::string::npos;
  EXPECT_TRUE(warned) << "the plugin's stderr reaches the log";
}

}  // namespace
}  // namespace strata::kubernetes
