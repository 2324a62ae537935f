// The cluster endpoint's authentication end to end: client certificates issued by the
// sandbox CA (and only those) over a real TLS connection that asks for one optionally,
// bearer tokens, the 401/403 Status bodies, and the kubeconfig `strata sandbox serve`
// writes — read back with Strata's own kubeconfig reader and used against the endpoint.

#include <gtest/gtest.h>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "engine/diag/diagnostic.h"
#include "providers/aws/sts/eks_token.h"
#include "providers/kubernetes/config/kubeconfig.h"
#include "sandbox/cluster_tls.h"
#include "sandbox/kubeconfig.h"
#include "sandbox/kubernetes/auth/authenticate.h"
#include "sandbox/kubernetes/auth/client_certificate.h"
#include "sandbox/listener.h"
#include "sandbox/sandbox.h"
#include "tests/unit/k8s_auth/k8s_auth_test_support.h"
#include "tests/unit/support/temp_dir.h"

namespace strata::sandbox::k8s_auth {
namespace {

using Json = nlohmann::json;

CertificateAuthority NewCa() {
  auto world = World::Open("");
  return LoadOrCreateCa(*world);
}

TEST(ClientCertificateTest, ACertificateFromTheCaIsItsCnInItsOs) {
  CertificateAuthority ca = NewCa();
  ClientCertificate client = IssueClientCertificate(ca, "strata-sandbox-admin", {"system:masters", "team-a"});
  X509Ptr cert = testing::ParseCert(client.cert_pem);
  ClientCertificateCheck check = VerifyCertificate(cert.get(), ca.cert.get());
  ASSERT_TRUE(check.user) << check.reason;
  EXPECT_EQ(check.user->name, "strata-sandbox-admin");
  EXPECT_EQ(check.user->groups, (std::vector<std::string>{"system:masters", "team-a", "system:authenticated"}));
  EXPECT_TRUE(check.user->IsAdmin());
}

TEST(ClientCertificateTest, AnotherCasCertificateIsRefused) {
  CertificateAuthority ca = NewCa(), other = NewCa();
  X509Ptr cert = testing::ParseCert(IssueClientCertificate(other, "mallory", {"system:masters"}).cert_pem);
  ClientCertificateCheck check = VerifyCertificate(cert.get(), ca.cert.get());
  EXPECT_TRUE(check.presented);
  EXPECT_FALSE(check.user);
  EXPECT_NE(check.reason.find("does not verify against the sandbox CA"), std::string::npos) << check.reason;
}

TEST(ClientCertificateTest, TheServersCertificateIsNoClientCertificate) {
  CertificateAuthority ca = NewCa();
  ServerCertificate server = IssueServerCertificate(ca);
  ClientCertificateCheck check = VerifyCertificate(server.cert.get(), ca.cert.get());
  EXPECT_FALSE(check.user);  // extendedKeyUsage serverAuth only
  EXPECT_FALSE(VerifyCertificate(nullptr, ca.cert.get()).presented);
}

// A TLS server set up as the sandbox's cluster endpoint is, answering who the client
// certificate says the caller is.
class OptionalClientCertificateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ca_ = NewCa();
    ServerCertificate cert = IssueServerCertificate(ca_);
    server_ = std::make_unique<Listener<httplib::SSLServer>>(cert.cert.get(), cert.key.get());
    ASSERT_TRUE(server_->is_valid());
    RequestOptionalClientCertificates(server_->ssl_context(), ca_);
    server_->Get("/whoami", [this](const httplib::Request& req, httplib::Response& res) {
      ClientCertificateCheck check = VerifyClientCertificate(req.ssl, ca_.cert.get());
      res.set_content(check.user ? check.user->name : (check.presented ? "refused: " + check.reason : "anonymous"),
                      "text/plain");
    });
    port_ = server_->Bind("127.0.0.1", 0);
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void TearDown() override {
    server_->stop();
    thread_.join();
  }

  std::string Get(httplib::SSLClient& client) {
    client.enable_server_certificate_verification(false);
    auto res = client.Get("/whoami");
    return res ? res->body : "connection failed: " + httplib::to_string(res.error());
  }

  CertificateAuthority ca_;
  std::unique_ptr<Listener<httplib::SSLServer>> server_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(OptionalClientCertificateTest, WithoutACertificateTheConnectionIsServed) {
  httplib::SSLClient client("127.0.0.1", port_);
  EXPECT_EQ(Get(client), "anonymous");
}

TEST_F(OptionalClientCertificateTest, TheHandlerSeesAVerifiedCertificate) {
  ClientCertificate issued = IssueClientCertificate(ca_, "kubectl-user", {"system:masters"});
  X509Ptr cert = testing::ParseCert(issued.cert_pem);
  EvpPkeyPtr key = testing::ParseKey(issued.key_pem);
  httplib::SSLClient client("127.0.0.1", port_, cert.get(), key.get());
  EXPECT_EQ(Get(client), "kubectl-user");
}

TEST_F(OptionalClientCertificateTest, AnUntrustedCertificateReachesTheHandlerToBeRefused) {
  CertificateAuthority other = NewCa();
  ClientCertificate issued = IssueClientCertificate(other, "mallory", {"system:masters"});
  X509Ptr cert = testing::ParseCert(issued.cert_pem);
  EvpPkeyPtr key = testing::ParseKey(issued.key_pem);
  httplib::SSLClient client("127.0.0.1", port_, cert.get(), key.get());
  EXPECT_EQ(Get(client).rfind("refused: x509:", 0), 0u);
}

// --- Authenticate: which Status a request gets ---------------------------------------------------

struct BearerCase {
  ClusterAccess cluster{"demo", "us-east-1", "arn:aws:iam::111122223333:user/sandbox", true, {}};
  SandboxSettings settings;
  std::chrono::system_clock::time_point now = std::chrono::system_clock::from_time_t(1767225600);

  std::string Token(const std::string& cluster_name) const {
    aws::Credentials creds;
    creds.access_key_id = settings.access_key;
    creds.secret_access_key = settings.secret_key;
    aws::EksTokenRequest request{cluster_name, "us-east-1", "http://127.0.0.1:4566", now};
    return aws::MakeEksToken(creds, request)->token;
  }
  AuthResult Run(const std::string& authorization) const {
    AuthContext ctx{[this](const std::string& key) -> std::optional<AccessKeyRecord> {
                      if (key != settings.access_key) return std::nullopt;
                      return AccessKeyRecord{settings.secret_key, "", std::nullopt,
                                             SandboxUserIdentity(settings.account_id)};
                    },
                    nullptr,
                    {"127.0.0.1"},
                    now};
    return AuthenticateParts(nullptr, authorization, "GET", "/clusters/demo/api", cluster, ctx);
  }
};

TEST(AuthenticateTest, TheCreatorsTokenIsAdmitted) {
  BearerCase c;
  AuthResult r = c.Run("Bearer " + c.Token("demo"));
  EXPECT_EQ(r.status, 200) << r.reason;
  EXPECT_EQ(r.user.name, "arn:aws:iam::111122223333:user/sandbox");
  EXPECT_TRUE(r.user.IsAdmin());
  EXPECT_TRUE(r.status_json.empty());
}

TEST(AuthenticateTest, NoCredentialsOrABadTokenIsKubesPlain401) {
  BearerCase c;
  for (const std::string& authorization : {std::string(), std::string("Basic abc"), "Bearer " + c.Token("other")}) {
    AuthResult r = c.Run(authorization);
    EXPECT_EQ(r.status, 401);
    EXPECT_FALSE(r.reason.empty());
    EXPECT_EQ(Json::parse(r.status_json),
              Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                              "message":"Unauthorized","reason":"Unauthorized","code":401})"));
  }
}

TEST(AuthenticateTest, SomeoneOtherThanTheCreatorIs403WithTheirArn) {
  BearerCase c;
  c.cluster.creator_arn = "arn:aws:iam::111122223333:role/deployer";
  AuthResult r = c.Run("Bearer " + c.Token("demo"));
  EXPECT_EQ(r.status, 403);
  Json status = Json::parse(r.status_json);
  EXPECT_EQ(status["reason"], "Forbidden");
  EXPECT_EQ(status["code"], 403);
  EXPECT_NE(status["message"].get<std::string>().find(
                "User \"arn:aws:iam::111122223333:user/sandbox\" cannot get path \"/clusters/demo/api\""),
            std::string::npos)
      << status["message"];
}

// --- the sandbox's endpoint and its kubeconfig ---------------------------------------------------

class SandboxEndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    settings_.state_path = dir_.File("world.db");
    {
      auto world = World::Open(settings_.state_path);
      testing::PutCluster(*world, testing::ClusterDoc("demo", "arn:aws:iam::111122223333:user/sandbox"));
      testing::PutCluster(*world, testing::ClusterDoc("theirs", "arn:aws:iam::111122223333:role/other", true,
                                                      "eu-west-1"));
    }
    sandbox_ = std::make_unique<Sandbox>(settings_);
    std::string error;
    ASSERT_TRUE(sandbox_->Start(error)) << error;
    port_ = std::stoi(sandbox_->cluster_url().substr(sandbox_->cluster_url().rfind(':') + 1));
  }

  // GET `path` on the cluster endpoint, trusting the sandbox CA, with `cert`/`key` if given.
  httplib::Result Get(const std::string& path, X509* cert = nullptr, EVP_PKEY* key = nullptr,
                      const std::string& token = "") {
    auto client = cert ? std::make_unique<httplib::SSLClient>("127.0.0.1", port_, cert, key)
                       : std::make_unique<httplib::SSLClient>("127.0.0.1", port_);
    X509_STORE* trusted = X509_STORE_new();  // the client's SSL_CTX takes it over
    X509_STORE_add_cert(trusted, testing::ParseCert(sandbox_->ca_pem()).get());
    client->set_ca_cert_store(trusted);
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
    return client->Get(path.c_str(), headers);
  }

  std::optional<kubernetes::KubeConnection> Resolve(const std::string& context) {
    std::string path = dir_.File("kubeconfig");
    std::string error;
    EXPECT_TRUE(WritePrivateFile(path, sandbox_->Kubeconfig(), error)) << error;
    Diagnostics diags;
    auto config = kubernetes::Kubeconfig::Load({path}, true, diags);
    EXPECT_TRUE(config) << diags.size();
    if (!config) return std::nullopt;
    auto connection = config->Resolve(context, diags);
    EXPECT_FALSE(diags.HasErrors());
    return connection;
  }

  test_support::TempDir dir_;
  SandboxSettings settings_;
  std::unique_ptr<Sandbox> sandbox_;
  int port_ = 0;
};

TEST_F(SandboxEndpointTest, TheKubeconfigNamesEveryClusterAndParses) {
  auto demo = Resolve("");  // the current context: the first cluster
  ASSERT_TRUE(demo);
  EXPECT_EQ(demo->context, "demo");
  EXPECT_EQ(demo->server, sandbox_->recorded_cluster_url() + "/clusters/demo");
  EXPECT_EQ(demo->ca_pem, sandbox_->ca_pem());
  EXPECT_NE(demo->client_certificate_pem.find("BEGIN CERTIFICATE"), std::string::npos);
  EXPECT_NE(demo->client_key_pem.find("PRIVATE KEY"), std::string::npos);
  auto theirs = Resolve("theirs");
  ASSERT_TRUE(theirs);
  EXPECT_EQ(theirs->server, sandbox_->recorded_cluster_url() + "/clusters/theirs");
  EXPECT_EQ(std::filesystem::status(dir_.File("kubeconfig")).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

TEST_F(SandboxEndpointTest, TheKubeconfigsCertificateIsAdminOfEveryCluster) {
  auto demo = Resolve("demo");
  ASSERT_TRUE(demo);
  X509Ptr cert = testing::ParseCert(demo->client_certificate_pem);
  EvpPkeyPtr key = testing::ParseKey(demo->client_key_pem);
  for (const char* cluster : {"demo", "theirs"}) {
    auto res = Get(std::string("/clusters/") + cluster + "/version", cert.get(), key.get());
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200) << res->body;  // admitted: the cluster's API answers
    EXPECT_EQ(Json::parse(res->body)["major"], "1");
  }
  auto missing = Get("/clusters/nope/version", cert.get(), key.get());
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(Json::parse(missing->body)["message"], "the sandbox has no EKS cluster \"nope\"");
}

TEST_F(SandboxEndpointTest, TokensAreCheckedAgainstTheCreator) {
  aws::Credentials creds;
  creds.access_key_id = settings_.access_key;
  creds.secret_access_key = settings_.secret_key;
  auto token = [&](const std::string& cluster) {
    aws::EksTokenRequest request{cluster, "us-east-1", sandbox_->url(), std::chrono::system_clock::now()};
    return aws::MakeEksToken(creds, request)->token;
  };
  auto admitted = Get("/clusters/demo/version", nullptr, nullptr, token("demo"));
  ASSERT_TRUE(admitted);
  EXPECT_EQ(admitted->status, 200) << admitted->body;
  auto forbidden = Get("/clusters/theirs/version", nullptr, nullptr, token("theirs"));
  ASSERT_TRUE(forbidden);
  EXPECT_EQ(forbidden->status, 403);
  EXPECT_NE(forbidden->body.find("arn:aws:iam::111122223333:user/sandbox"), std::string::npos);
  auto wrong_cluster = Get("/clusters/demo/version", nullptr, nullptr, token("theirs"));
  ASSERT_TRUE(wrong_cluster);
  EXPECT_EQ(wrong_cluster->status, 401);
  auto nothing = Get("/clusters/demo/version");
  ASSERT_TRUE(nothing);
  EXPECT_EQ(nothing->status, 401);
}

}  // namespace
}  // namespace strata::sandbox::k8s_auth
