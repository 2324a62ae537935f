// Exec credential plugins as client-go runs them: argv and env, KUBERNETES_EXEC_INFO byte
// for byte, v1 and v1beta1 answers, what is refused before running (v1alpha1, interactive
// Always), and the errors a user reads (exit code and stderr's end, installHint, bad JSON)
// — none of which may carry the token.
#include "providers/kubernetes/client/exec_credential.h"

#include <gtest/gtest.h>

#include "engine/base/time_format.h"

namespace strata::kubernetes {
namespace {

const char* kV1 = "client.authentication.k8s.io/v1";
const char* kV1beta1 = "client.authentication.k8s.io/v1beta1";

ExecConfig AwsPlugin(const std::string& api_version = kV1) {
  ExecConfig exec;
  exec.api_version = api_version;
  exec.command = "aws";
  exec.args = {"eks", "get-token", "--cluster-name", "demo"};
  exec.env = {{"AWS_PROFILE", "dev"}, {"AWS_REGION", "eu-west-1"}};
  exec.interactive_mode = "Never";
  exec.where = "/home/u/.kube/config:9:9";
  return exec;
}

KubeConnection Cluster() {
  KubeConnection c;
  c.context = "demo";
  c.server = "https://ABC.gr7.eu-west-1.eks.amazonaws.com";
  c.ca_pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  return c;
}

ProcessResult Printed(const std::string& stdout_text, const std::string& stderr_text = "") {
  ProcessResult r;
  r.started = true;
  r.exit_code = 0;
  r.stdout_text = stdout_text;
  r.stderr_text = stderr_text;
  return r;
}

std::string TokenAnswer(const std::string& api_version, const std::string& token, const std::string& expiry = "") {
  std::string status = R"({"token":")" + token + "\"";
  if (!expiry.empty()) status += R"(,"expirationTimestamp":")" + expiry + "\"";
  status += "}";
  return R"({"kind":"ExecCredential","apiVersion":")" + api_version + R"(","spec":{},"status":)" + status + "}";
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ExecCredentialTest, RunsTheCommandWithItsEnvAndExecInfoAsClientGoDoes) {
  FakeProcessRunner runner;
  runner.respond = [](const ProcessSpec&) { return Printed(TokenAnswer(kV1, "k8s-aws-v1.abc")); };
  auto credential = RunExecPlugin(runner, OperationContext{}, AwsPlugin(), Cluster());
  ASSERT_TRUE(credential) << credential.error();
  EXPECT_EQ(credential->token, "k8s-aws-v1.abc");
  EXPECT_FALSE(credential->expires_at);

  ASSERT_EQ(runner.Calls().size(), 1u);
  ProcessSpec spec = runner.Calls()[0];
  EXPECT_EQ(spec.argv, (std::vector<std::string>{"aws", "eks", "get-token", "--cluster-name", "demo"}));
  EXPECT_EQ(spec.env.at("AWS_PROFILE"), "dev");
  EXPECT_EQ(spec.env.at("AWS_REGION"), "eu-west-1");
  // client-go's encoding: kind first, spec.interactive false, no cluster without provideClusterInfo.
  EXPECT_EQ(spec.env.at("KUBERNETES_EXEC_INFO"),
            R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}})");
  EXPECT_EQ(spec.env.size(), 3u);
  EXPECT_TRUE(spec.working_dir.empty());
}

TEST(ExecCredentialTest, ProvideClusterInfoSendsTheClusterWithItsCaAsBase64) {
  ExecConfig exec = AwsPlugin(kV1beta1);
  exec.provide_cluster_info = true;
  KubeConnection cluster = Cluster();
  cluster.insecure = true;
  cluster.tls_server_name = "kubernetes.default";
  EXPECT_EQ(ExecInfoJson(exec, cluster),
            R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"cluster":)"
            R"({"server":"https://ABC.gr7.eu-west-1.eks.amazonaws.com","tls-server-name":"kubernetes.default",)"
            R"("insecure-skip-tls-verify":true,"certificate-authority-data":)"
            R"("LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo="},)"
            R"("interactive":false}})");
}

TEST(ExecCredentialTest, AnExecInfoInTheEnvBlockIsOverriddenByTheRealOne) {
  ExecConfig exec = AwsPlugin();
  exec.env.emplace_back("KUBERNETES_EXEC_INFO", "forged");
  exec.env.emplace_back("AWS_PROFILE", "prod");  // a later entry wins, as in os/exec
  ProcessSpec spec = ExecPluginSpec(exec, Cluster());
  EXPECT_NE(spec.env.at("KUBERNETES_EXEC_INFO"), "forged");
  EXPECT_EQ(spec.env.at("AWS_PROFILE"), "prod");
}

TEST(ExecCredentialTest, ReadsAV1beta1TokenWithItsExpiry) {
  auto c = ParseExecCredential(TokenAnswer(kV1beta1, "t0ken", "2030-01-02T03:04:05Z"), kV1beta1);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->token, "t0ken");
  ASSERT_TRUE(c->expires_at);
  EXPECT_EQ(base::FormatRfc3339(*c->expires_at), "2030-01-02T03:04:05Z");
}

TEST(ExecCredentialTest, ReadsAV1ClientCertificateAndKey) {
  auto c = ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",)"
                               R"("status":{"clientCertificateData":"CERT PEM","clientKeyData":"KEY PEM"}})",
                               kV1);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->token, "");
  EXPECT_EQ(c->client_certificate_pem, "CERT PEM");
  EXPECT_EQ(c->client_key_pem, "KEY PEM");
}

TEST(ExecCredentialTest, RefusesAnswersWithoutAUsableStatus) {
  EXPECT_TRUE(Contains(ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"})", kV1).error(),
                       "no status"));
  EXPECT_TRUE(Contains(ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})", kV1).error(),
                       "no token and no client certificate"));
  EXPECT_TRUE(Contains(ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientKeyData":"K"}})", kV1).error(),
                       "not both"));
  EXPECT_TRUE(Contains(ParseExecCredential(TokenAnswer(kV1, "t", "tomorrow"), kV1).error(), "\"tomorrow\" is not an RFC 3339"));
  EXPECT_TRUE(Contains(ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Secret","status":{"token":"t"}})", kV1).error(),
                       "kind \"Secret\""));
  EXPECT_TRUE(Contains(ParseExecCredential("  \n", kV1).error(), "printed nothing"));
}

TEST(ExecCredentialTest, BadJsonIsRefusedWithoutQuotingTheOutput) {
  FakeProcessRunner runner;
  runner.respond = [](const ProcessSpec&) { return Printed(R"({"status":{"token":"s3cret-token)"); };
  auto c = RunExecPlugin(runner, OperationContext{}, AwsPlugin(), Cluster());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Contains(c.error(), "The exec credential plugin \"aws\" (users[].user.exec at /home/u/.kube/config:9:9) "
                                  "ran, but its stdout is not a JSON object"))
      << c.error();
  EXPECT_FALSE(Contains(c.error(), "s3cret")) << c.error();
}

TEST(ExecCredentialTest, AnAnswerOfAnotherApiVersionIsRefused) {
  FakeProcessRunner runner;
  runner.respond = [](const ProcessSpec&) { return Printed(TokenAnswer(kV1beta1, "s3cret")); };
  auto c = RunExecPlugin(runner, OperationContext{}, AwsPlugin(kV1), Cluster());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Contains(c.error(), "answered with apiVersion \"client.authentication.k8s.io/v1beta1\" but the kubeconfig "
                                  "asks for \"client.authentication.k8s.io/v1\""))
      << c.error();
  EXPECT_FALSE(Contains(c.error(), "s3cret"));
}

TEST(ExecCredentialTest, AFailingCommandShowsItsExitCodeAndTheEndOfItsStderrButNotItsArgs) {
  FakeProcessRunner runner;
  runner.respond = [](const ProcessSpec&) {
    ProcessResult r = Printed(R"({"status":{"token":"s3cret"}})");
    r.exit_code = 255;
    for (int i = 1; i <= 14; ++i) r.stderr_text += "line " + std::to_string(i) + "\n";
    r.stderr_text += "\nAn error occurred (ExpiredToken): The security token included in the request is expired\n";
    return r;
  };
  ExecConfig exec = AwsPlugin();
  exec.args.push_back("--secret-arg");
  auto c = RunExecPlugin(runner, OperationContext{}, exec, Cluster());
  ASSERT_FALSE(c);
  const std::string& e = c.error();
  EXPECT_TRUE(Contains(e, "The exec credential plugin \"aws\" (users[].user.exec at /home/u/.kube/config:9:9) failed "
                          "with exit code 255. The end of its stderr:\n  line 6\n"))
      << e;
  EXPECT_TRUE(Contains(e, "\n  line 14\n  An error occurred (ExpiredToken)")) << e;
  EXPECT_FALSE(Contains(e, "line 5\n")) << "ten lines at most";
  EXPECT_FALSE(Contains(e, "--secret-arg"));
  EXPECT_FALSE(Contains(e, "s3cret"));
}

TEST(ExecCredentialTest, ACommandNotFoundShowsTheInstallHint) {
  ExecConfig exec = AwsPlugin();
  exec.command = "strata-no-such-credential-plugin";
  exec.install_hint = "Install gke-gcloud-auth-plugin: gcloud components install gke-gcloud-auth-plugin";
  auto posix = PosixProcessRunner();
  auto c = RunExecPlugin(*posix, OperationContext{}, exec, Cluster());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Contains(c.error(), "The exec credential plugin \"strata-no-such-credential-plugin\" (users[].user.exec "
                                  "at /home/u/.kube/config:9:9) was not found or could not be started (cannot run "
                                  "\"strata-no-such-credential-plugin\": No such file or directory).\n\n"
                                  "Install gke-gcloud-auth-plugin: gcloud components install"))
      << c.error();

  exec.install_hint.clear();
  c = RunExecPlugin(*posix, OperationContext{}, exec, Cluster());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Contains(c.error(), "Install it, or put the directory that holds it on PATH.")) << c.error();
}

TEST(ExecCredentialTest, InteractiveModeAlwaysIsRefusedBeforeRunning) {
  FakeProcessRunner runner;
  ExecConfig exec = AwsPlugin();
  exec.interactive_mode = "Always";
  auto c = RunExecPlugin(runner, OperationContext{}, exec, Cluster());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Contains(c.error(), "interactiveMode: Always, but Strata runs plugins without a terminal")) << c.error();
  EXPECT_TRUE(runner.Calls().empty());

  exec.interactive_mode = "IfAvailable";
  EXPECT_FALSE(CheckExecConfig(exec));
  exec.interactive_mode = "";
  EXPECT_FALSE(CheckExecConfig(exec)) << "unset reads as Never: there is no terminal to offer";
  exec.interactive_mode = "Sometimes";
  EXPECT_TRUE(Contains(CheckExecConfig(exec).value_or(""), "interactiveMode \"Sometimes\""));
}

TEST(ExecCredentialTest, V1alpha1AndUnknownApiVersionsAreRefusedBeforeRunning) {
  FakeProcessRunner runner;
  auto c = RunExecPlugin(runner, OperationContext{}, AwsPlugin("client.authentication.k8s.io/v1alpha1"), Cluster());
  ASSERT_FALSE(c);
  EXPECT_TRUE(Contains(c.error(), "which Kubernetes removed in 1.24")) << c.error();
  EXPECT_TRUE(Contains(CheckExecConfig(AwsPlugin("")).value_or(""), "has apiVersion \"\""));
  EXPECT_TRUE(runner.Calls().empty());
}

}  // namespace
}  // namespace strata::kubernetes
