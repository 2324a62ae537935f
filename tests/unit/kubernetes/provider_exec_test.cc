// The kubernetes provider's Configure with a kubeconfig user that has an exec plugin: the
// plugin runs once there, its client certificate goes into the transport, its failure is
// Configure's error, and a token or certificate of the user's own wins (as in client-go).
#include <gtest/gtest.h>

#include "fake_transport.h"
#include "providers/kubernetes/kubernetes_provider.h"
#include "tests/unit/support/temp_dir.h"

namespace strata::kubernetes {
namespace {

std::string Kubeconfig(const std::string& user_extra, const std::string& interactive_mode = "Never") {
  return R"(current-context: eks
clusters:
  - name: eks
    cluster: { server: https://eks.example:443 }
users:
  - name: eks
    user:
)" + user_extra +
         R"(      exec:
        apiVersion: client.authentication.k8s.io/v1beta1
        command: aws
        args: [eks, get-token, --cluster-name, demo]
        interactiveMode: )" +
         interactive_mode + R"(
contexts:
  - name: eks
    context: { cluster: eks, user: eks }
)";
}

struct ProviderFixture {
  test_support::TempDir dir;
  std::shared_ptr<FakeProcessRunner> runner = std::make_shared<FakeProcessRunner>();
  std::vector<KubeConnection> transports;
  std::unique_ptr<KubernetesProvider> provider;

  ProviderFixture() {
    runner->respond = [](const ProcessSpec&) {
      ProcessResult r;
      r.started = true;
      r.exit_code = 0;
      r.stdout_text = R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential",)"
                      R"("status":{"token":"t","clientCertificateData":"CERT","clientKeyData":"KEY"}})";
      return r;
    };
    KubernetesProviderOptions options;
    options.kubeconfig_env = [] { return std::optional<std::string>(); };
    options.processes = runner;
    options.make_transport = [this](const KubeConnection& c) {
      transports.push_back(c);
      return std::make_shared<testing::FakeTransport>();
    };
    provider = std::make_unique<KubernetesProvider>(options);
  }

  Diagnostics Configure(const std::string& kubeconfig) {
    std::string path = dir.Write("config", kubeconfig);
    return provider->Configure(OperationContext{}, Value::Object(ValueMap{{"config_path", Value::String(path)}}));
  }
};

std::string Errors(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags) out += d.summary + ": " + d.detail + "\n";
  return out;
}

TEST(KubernetesProviderExecTest, RunsThePluginOnceAtConfigureAndBuildsTheTransportWithItsCertificate) {
  ProviderFixture f;
  Diagnostics diags = f.Configure(Kubeconfig(""));
  ASSERT_FALSE(diags.HasErrors()) << Errors(diags);
  ASSERT_EQ(f.runner->Calls().size(), 1u);
  EXPECT_EQ(f.runner->Calls()[0].argv.at(0), "aws");
  ASSERT_EQ(f.transports.size(), 1u);
  EXPECT_EQ(f.transports[0].client_certificate_pem, "CERT");
  EXPECT_EQ(f.transports[0].client_key_pem, "KEY");
  EXPECT_EQ(f.transports[0].server, "https://eks.example:443");
}

TEST(KubernetesProviderExecTest, APluginThatCannotRunIsConfiguresError) {
  ProviderFixture f;
  Diagnostics diags = f.Configure(Kubeconfig("", "Always"));
  ASSERT_TRUE(diags.HasErrors());
  std::string text = Errors(diags);
  EXPECT_NE(text.find("Kubernetes credentials not available: The kubeconfig context \"eks\" gets its credentials "
                      "from a command: The exec credential plugin \"aws\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("interactiveMode: Always"), std::string::npos) << text;
  EXPECT_TRUE(f.runner->Calls().empty());
  EXPECT_TRUE(f.transports.empty());
}

TEST(KubernetesProviderExecTest, TheUsersOwnTokenWinsOverThePlugin) {
  ProviderFixture f;
  Diagnostics diags = f.Configure(Kubeconfig("      token: own-token\n"));
  ASSERT_FALSE(diags.HasErrors()) << Errors(diags);
  EXPECT_TRUE(f.runner->Calls().empty());
  ASSERT_EQ(f.transports.size(), 1u);
  EXPECT_EQ(f.transports[0].token, "own-token");
}

}  // namespace
}  // namespace strata::kubernetes
