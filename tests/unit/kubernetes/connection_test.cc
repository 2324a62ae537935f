// The kubernetes provider block's connection: the EKS path (host, CA, token) alone, a
// kubeconfig context with the block's settings written over it, KUBECONFIG only when the
// block names no cluster, and never ~/.kube/config unless named.
#include "providers/kubernetes/config/connection.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/unit/support/temp_dir.h"

namespace strata::kubernetes {
namespace {

namespace fs = std::filesystem;

Value Block(std::initializer_list<std::pair<const std::string, Value>> members) { return Value::Object(ValueMap(members)); }

std::string Errors(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags) out += d.summary + ": " + d.detail + "\n";
  return out;
}

class ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kubeconfig_ = dir_.File("config");
    std::ofstream(kubeconfig_) << R"(current-context: dev
clusters:
  - name: dev
    cluster: { server: https://dev.example:6443, certificate-authority-data: Q0E= }
users:
  - name: dev
    user:
      exec: { apiVersion: client.authentication.k8s.io/v1, command: aws, args: [eks, get-token] }
contexts:
  - name: dev
    context: { cluster: dev, user: dev, namespace: apps }
)";
  }
  test_support::TempDir dir_;
  std::string kubeconfig_;
};

TEST_F(ConnectionTest, EksPathNeedsNoKubeconfig) {
  ConnectionSettings s = ParseConnectionSettings(Block({{"host", Value::String("https://ABC.gr7.eks.amazonaws.com")},
                                                        {"cluster_ca_certificate", Value::String("PEM")},
                                                        {"token", Value::String("k8s-aws-v1.xyz")}}));
  Diagnostics diags;
  auto c = ResolveConnection(s, kubeconfig_, diags);
  ASSERT_TRUE(c) << Errors(diags);
  EXPECT_EQ(c->server, "https://ABC.gr7.eks.amazonaws.com");
  EXPECT_EQ(c->ca_pem, "PEM");
  EXPECT_EQ(c->token, "k8s-aws-v1.xyz");
  EXPECT_FALSE(c->exec);
  EXPECT_EQ(c->namespace_name, "default") << "KUBECONFIG is not read when the block names a host";
}

TEST_F(ConnectionTest, ConfigPathContextWithTheBlockWrittenOver) {
  Diagnostics diags;
  auto from_file = ResolveConnection(ParseConnectionSettings(Block({{"config_path", Value::String(kubeconfig_)}})),
                                     std::nullopt, diags);
  ASSERT_TRUE(from_file) << Errors(diags);
  EXPECT_EQ(from_file->server, "https://dev.example:6443");
  EXPECT_EQ(from_file->ca_pem, "CA");
  EXPECT_EQ(from_file->namespace_name, "apps");
  ASSERT_TRUE(from_file->exec);
  EXPECT_EQ(from_file->exec->command, "aws");

  auto over = ResolveConnection(ParseConnectionSettings(Block({{"config_path", Value::String(kubeconfig_)},
                                                               {"config_context", Value::String("dev")},
                                                               {"token", Value::String("t")},
                                                               {"insecure", Value::Bool(true)}})),
                                std::nullopt, diags);
  ASSERT_TRUE(over) << Errors(diags);
  EXPECT_EQ(over->token, "t");
  EXPECT_FALSE(over->exec) << "a token in the block replaces the context's plugin";
  EXPECT_TRUE(over->insecure);
  EXPECT_EQ(over->server, "https://dev.example:6443");
}

TEST_F(ConnectionTest, KubeconfigVariableOnlyWhenTheBlockNamesNoCluster) {
  Diagnostics diags;
  auto c = ResolveConnection(ParseConnectionSettings(Value()), kubeconfig_, diags);
  ASSERT_TRUE(c) << Errors(diags);
  EXPECT_EQ(c->context, "dev");

  Diagnostics none;
  EXPECT_FALSE(ResolveConnection(ParseConnectionSettings(Value()), std::nullopt, none));
  EXPECT_NE(Errors(none).find("~/.kube/config is not read unless named"), std::string::npos) << Errors(none);

  Diagnostics missing;
  EXPECT_FALSE(ResolveConnection(ParseConnectionSettings(Value()), dir_.File("nope"), missing));
  EXPECT_NE(Errors(missing).find("None of the kubeconfig files"), std::string::npos) << Errors(missing);
}

TEST_F(ConnectionTest, WrittenPathsMustExistAndHostsMustBeUrls) {
  Diagnostics missing;
  ConnectionSettings s = ParseConnectionSettings(
      Block({{"config_paths", Value::List({Value::String(dir_.File("gone")), Value::String(kubeconfig_)})}}));
  ASSERT_EQ(s.config_paths.size(), 2u);
  EXPECT_FALSE(ResolveConnection(s, std::nullopt, missing));
  EXPECT_NE(Errors(missing).find("does not exist: check config_path"), std::string::npos) << Errors(missing);

  Diagnostics bad;
  EXPECT_FALSE(ResolveConnection(ParseConnectionSettings(Block({{"host", Value::String("eks.example")}})),
                                 std::nullopt, bad));
  EXPECT_NE(Errors(bad).find("\"eks.example\" is not an https:// URL"), std::string::npos) << Errors(bad);
}

}  // namespace
}  // namespace strata::kubernetes
