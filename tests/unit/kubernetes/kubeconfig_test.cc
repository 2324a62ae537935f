// Kubeconfig files read as kubectl reads them: KUBECONFIG lists merged (first file wins per
// name, first current-context), relative paths against the file's directory, base64 data,
// exec plugins, and errors that name file:line:col and what exists.
#include "providers/kubernetes/config/kubeconfig.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "engine/base/base64.h"
#include "tests/unit/support/temp_dir.h"

namespace strata::kubernetes {
namespace {

namespace fs = std::filesystem;

class KubeconfigTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) { return temp_.Write(name, text); }
  static std::string B64(const std::string& s) { return base::Base64Encode(s); }

  static std::string Errors(const Diagnostics& diags) {
    std::string out;
    for (const Diagnostic& d : diags) out += d.summary + ": " + d.detail + "\n";
    return out;
  }

  test_support::TempDir temp_;
  fs::path dir_ = temp_.path();
};

TEST_F(KubeconfigTest, CurrentContextResolvesServerCaTokenAndNamespace) {
  std::string path = Write("config", R"(apiVersion: v1
kind: Config
current-context: eks
clusters:
  - name: demo
    cluster:
      server: https://127.0.0.1:6443
      certificate-authority-data: )" + B64("-----BEGIN CERTIFICATE-----\nCA\n") + R"(
      tls-server-name: kubernetes.default
contexts:
  - name: eks
    context: { cluster: demo, user: admin, namespace: kube-system }
users:
  - name: admin
    user: { token: abc.def }
)");
  Diagnostics diags;
  auto config = Kubeconfig::Load({path}, true, diags);
  ASSERT_TRUE(config) << Errors(diags);
  auto c = config->Resolve("", diags);
  ASSERT_TRUE(c) << Errors(diags);
  EXPECT_EQ(c->context, "eks");
  EXPECT_EQ(c->server, "https://127.0.0.1:6443");
  EXPECT_EQ(c->ca_pem, "-----BEGIN CERTIFICATE-----\nCA\n");
  EXPECT_EQ(c->tls_server_name, "kubernetes.default");
  EXPECT_FALSE(c->insecure);
  EXPECT_EQ(c->namespace_name, "kube-system");
  EXPECT_EQ(c->token, "abc.def");
  EXPECT_FALSE(c->exec);
}

TEST_F(KubeconfigTest, KubeconfigListMergesFirstFileWinsPerName) {
  std::string first = Write("a/config", R"(current-context: one
clusters:
  - name: shared
    cluster: { server: https://first }
users:
  - name: me
    user: { token: from-a }
contexts:
  - name: one
    context: { cluster: shared, user: me }
)");
  std::string second = Write("b/config", R"(current-context: two
clusters:
  - name: shared
    cluster: { server: https://second }
  - name: other
    cluster: { server: https://other }
contexts:
  - name: two
    context: { cluster: other, user: me }
)");
  std::vector<std::string> paths = KubeconfigPaths(first + "::" + dir_.string() + "/missing:" + second, "/home/x");
  ASSERT_EQ(paths.size(), 3u) << "empty entries are skipped";
  Diagnostics diags;
  auto config = Kubeconfig::Load(paths, false, diags);
  ASSERT_TRUE(config) << Errors(diags) << "a missing file of the list is skipped";
  EXPECT_EQ(config->current_context(), "one") << "the first file's current-context";
  EXPECT_EQ(config->Resolve("", diags)->server, "https://first") << "the first definition of a name wins";
  auto two = config->Resolve("two", diags);
  ASSERT_TRUE(two) << Errors(diags);
  EXPECT_EQ(two->server, "https://other");
  EXPECT_EQ(two->token, "from-a") << "a context may name a user of another file";
  EXPECT_EQ(two->namespace_name, "default");
}

TEST_F(KubeconfigTest, DefaultPathIsHomeKubeConfig) {
  EXPECT_EQ(KubeconfigPaths(std::nullopt, "/home/u"), std::vector<std::string>{"/home/u/.kube/config"});
  EXPECT_EQ(KubeconfigPaths(std::string(""), "/home/u"), std::vector<std::string>{"/home/u/.kube/config"});
}

TEST_F(KubeconfigTest, RelativePathsAreRelativeToTheFile) {
  Write("k/ca.crt", "CA-PEM");
  Write("k/certs/client.crt", "CERT-PEM");
  Write("k/certs/client.key", "KEY-PEM");
  Write("k/token", "tok-123\n");
  std::string path = Write("k/config", R"(current-context: c
clusters:
  - name: c
    cluster: { server: https://h, certificate-authority: ca.crt }
users:
  - name: u
    user:
      client-certificate: certs/client.crt
      client-key: certs/client.key
      tokenFile: token
contexts:
  - name: c
    context: { cluster: c, user: u }
)");
  Diagnostics diags;
  auto c = Kubeconfig::Load({path}, true, diags)->Resolve("", diags);
  ASSERT_TRUE(c) << Errors(diags);
  EXPECT_EQ(c->ca_pem, "CA-PEM");
  EXPECT_EQ(c->client_certificate_pem, "CERT-PEM");
  EXPECT_EQ(c->client_key_pem, "KEY-PEM");
  EXPECT_EQ(c->token, "tok-123") << "the token file's trailing newline is trimmed";
}

TEST_F(KubeconfigTest, ExecPluginIsReadAsWritten) {
  std::string path = Write("config", R"(current-context: eks
clusters:
  - name: eks
    cluster: { server: https://eks, insecure-skip-tls-verify: true }
users:
  - name: eks
    user:
      exec:
        apiVersion: client.authentication.k8s.io/v1
        command: bin/aws-helper
        args: [eks, get-token, --cluster-name, demo]
        env:
          - { name: AWS_PROFILE, value: dev }
        interactiveMode: Never
        provideClusterInfo: true
        installHint: install the AWS CLI
contexts:
  - name: eks
    context: { cluster: eks, user: eks }
)");
  Diagnostics diags;
  auto c = Kubeconfig::Load({path}, true, diags)->Resolve("", diags);
  ASSERT_TRUE(c) << Errors(diags);
  EXPECT_TRUE(c->insecure);
  ASSERT_TRUE(c->exec);
  EXPECT_EQ(c->exec->api_version, "client.authentication.k8s.io/v1");
  EXPECT_EQ(c->exec->command, (dir_ / "bin/aws-helper").string()) << "a command with a '/' is relative to the file";
  EXPECT_EQ(c->exec->args, (std::vector<std::string>{"eks", "get-token", "--cluster-name", "demo"}));
  ASSERT_EQ(c->exec->env.size(), 1u);
  EXPECT_EQ(c->exec->env[0], (std::pair<std::string, std::string>{"AWS_PROFILE", "dev"}));
  EXPECT_EQ(c->exec->interactive_mode, "Never");
  EXPECT_TRUE(c->exec->provide_cluster_info);
  EXPECT_EQ(c->exec->install_hint, "install the AWS CLI");
  EXPECT_EQ(c->exec->where, path + ":9:9");
}

TEST_F(KubeconfigTest, UnknownContextClusterOrUserSaysWhatExists) {
  std::string path = Write("config", R"(contexts:
  - name: a
    context: { cluster: gone, user: nobody }
  - name: b
    context: { cluster: gone }
clusters:
  - name: real
    cluster: { server: https://r }
)");
  Diagnostics diags;
  auto config = Kubeconfig::Load({path}, true, diags);
  ASSERT_TRUE(config);
  EXPECT_FALSE(config->Resolve("", diags));
  EXPECT_NE(Errors(diags).find("sets no current-context: name one with config_context (its contexts: a, b)"),
            std::string::npos)
      << Errors(diags);
  Diagnostics unknown;
  EXPECT_FALSE(config->Resolve("c", unknown));
  EXPECT_NE(Errors(unknown).find("No kubeconfig file defines context \"c\" (its contexts: a, b)"), std::string::npos)
      << Errors(unknown);
  Diagnostics missing;
  EXPECT_FALSE(config->Resolve("a", missing));
  std::string text = Errors(missing);
  EXPECT_NE(text.find("Context \"a\" names cluster \"gone\", which no kubeconfig file defines (its clusters: real)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("names user \"nobody\""), std::string::npos) << text;
}

TEST_F(KubeconfigTest, MalformedMembersNameTheirPosition) {
  std::string path = Write("config", R"(current-context: c
clusters:
  - name: c
    cluster:
      server: https://h
      certificate-authority-data: "not base64!"
users:
  - name: u
    user:
      client-key: missing.key
      auth-provider: { name: gcp }
contexts:
  - name: c
    context: { cluster: c, user: u }
)");
  Diagnostics diags;
  EXPECT_FALSE(Kubeconfig::Load({path}, true, diags)->Resolve("", diags));
  std::string text = Errors(diags);
  EXPECT_NE(text.find(path + ":6:35: \"certificate-authority-data\" is not valid base64"), std::string::npos) << text;
  EXPECT_NE(text.find(path + ":10:19: \"client-key\" names " + (dir_ / "missing.key").string() + ", which cannot be read"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("auth-provider plugins are not supported"), std::string::npos) << text;
}

TEST_F(KubeconfigTest, BrokenYamlAndMissingExplicitFileAreErrors) {
  std::string path = Write("config", "clusters:\n  - name: [unclosed\n");
  Diagnostics diags;
  EXPECT_FALSE(Kubeconfig::Load({path}, true, diags));
  EXPECT_NE(Errors(diags).find("Invalid kubeconfig: " + path + ":"), std::string::npos) << Errors(diags);

  Diagnostics missing;
  EXPECT_FALSE(Kubeconfig::Load({(dir_ / "nope").string()}, true, missing));
  EXPECT_NE(Errors(missing).find("does not exist: check config_path"), std::string::npos) << Errors(missing);

  Diagnostics two_docs;
  EXPECT_FALSE(Kubeconfig::Load({Write("two", "clusters: []\n---\nusers: []\n")}, true, two_docs));
  EXPECT_NE(Errors(two_docs).find("a kubeconfig is one YAML document"), std::string::npos) << Errors(two_docs);

  Diagnostics listed;
  auto none = Kubeconfig::Load({(dir_ / "nope").string()}, false, listed);
  ASSERT_TRUE(none) << "a missing file of KUBECONFIG is skipped";
  EXPECT_TRUE(none->empty());
}

TEST_F(KubeconfigTest, WrongShapesAreErrorsNotCrashes) {
  std::string path = Write("config", R"(clusters: { name: x }
users:
  - just-a-string
contexts:
  - name: c
    context: not-a-mapping
)");
  Diagnostics diags;
  auto config = Kubeconfig::Load({path}, true, diags);
  EXPECT_FALSE(config);
  std::string text = Errors(diags);
  EXPECT_NE(text.find(path + ":1:11: \"clusters\" must be a list of {name, cluster}"), std::string::npos) << text;
  EXPECT_NE(text.find(path + ":3:5: each entry of \"users\" needs a name"), std::string::npos) << text;
  EXPECT_NE(text.find(path + ":6:14: the \"context\" of context \"c\" must be a mapping"), std::string::npos) << text;
}

}  // namespace
}  // namespace strata::kubernetes
