// The sandbox's https cluster endpoint: a real TLS server whose certificate verifies
// against the sandbox CA (and only against it), for 127.0.0.1 and localhost alike.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "providers/aws/http/curl_transport.h"
#include "tests/unit/sandbox/server_test_support.h"

namespace strata::sandbox {
namespace {

aws::CurlTransportOptions Trusting(const std::string& ca_file) {
  aws::CurlTransportOptions options;
  options.ca_bundle = ca_file;
  return options;
}

std::string WriteCaFile(const Sandbox& sandbox) {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("strata-sandbox-ca-" + std::to_string(::getpid()) + "-" +
                                std::to_string(sandbox.port()) + ".pem");
  std::ofstream(path) << sandbox.ca_pem();
  return path.string();
}

aws::TransportResult Get(aws::CurlTransport& transport, const std::string& url, aws::HttpHeaders headers = {}) {
  aws::HttpRequest request;
  request.url = url;
  request.headers = std::move(headers);
  return transport.Send(request);
}

TEST(SandboxClusterEndpointTest, VerifiesWithTheSandboxCa) {
  auto sandbox = testing::StartSandbox();
  aws::CurlTransport transport(Trusting(WriteCaFile(*sandbox)));
  auto r = Get(transport, sandbox->cluster_url() + "/clusters/demo/version");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.response().status, 401);
  auto status = nlohmann::json::parse(r.response().body);
  EXPECT_EQ(status["kind"], "Status");
  EXPECT_EQ(status["reason"], "Unauthorized");
  EXPECT_EQ(status["code"], 401);
}

TEST(SandboxClusterEndpointTest, CertificateCoversLocalhost) {
  auto sandbox = testing::StartSandbox();
  aws::CurlTransport transport(Trusting(WriteCaFile(*sandbox)));
  std::string port = sandbox->cluster_url().substr(sandbox->cluster_url().rfind(':'));
  auto r = Get(transport, "https://localhost" + port + "/clusters/demo/version",
               {{"Authorization", "Bearer k8s-aws-v1.x"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.response().status, 401);  // TLS worked; the token is not a valid one
}

TEST(SandboxClusterEndpointTest, IsRefusedWithoutTheCa) {
  auto sandbox = testing::StartSandbox();
  aws::CurlTransport transport;  // the system's trust store
  auto r = Get(transport, sandbox->cluster_url() + "/version");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, aws::TransportError::Kind::Tls) << r.error().message;
}

TEST(SandboxClusterEndpointTest, AnotherSandboxCaIsNotTrusted) {
  auto sandbox = testing::StartSandbox();
  auto other = testing::StartSandbox();
  aws::CurlTransport transport(Trusting(WriteCaFile(*other)));
  auto r = Get(transport, sandbox->cluster_url() + "/version");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, aws::TransportError::Kind::Tls);
}

}  // namespace
}  // namespace strata::sandbox
