// A private CA for the aws provider: AWS_CA_BUNDLE, or ca_bundle in the AWS config file's
// profile, is trusted by the provider's HTTP client (ParseAwsSettings -> MakeAwsClient),
// against an https STS endpoint on 127.0.0.1 whose certificate a private CA signed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "providers/aws/common/aws_settings.h"
#include "sandbox/cluster_tls.h"
#include "sandbox/world.h"
#include "test_support.h"

namespace strata::aws {
namespace {

constexpr const char* kArn = "arn:aws:iam::123456789012:user/ca-bundle-test";

// STS over https on 127.0.0.1, its certificate signed by a CA of its own (the one the
// sandbox makes for its cluster endpoints).
class PrivateCaSts {
 public:
  PrivateCaSts() : world_(sandbox::World::Open("")), ca_(sandbox::LoadOrCreateCa(*world_)),
                   cert_(sandbox::IssueServerCertificate(ca_)), server_(cert_.cert.get(), cert_.key.get()) {
    server_.Post("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string("<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>") + kArn +
                          "</Arn><UserId>AIDATEST</UserId><Account>123456789012</Account>"
                          "</GetCallerIdentityResult><ResponseMetadata><RequestId>r</RequestId>"
                          "</ResponseMetadata></GetCallerIdentityResponse>",
                      "text/xml");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ca_file_ = std::filesystem::temp_directory_path() /
               ("strata-ca-bundle-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".pem");
    std::ofstream(ca_file_) << ca_.cert_pem;
  }
  ~PrivateCaSts() {
    server_.stop();
    thread_.join();
    std::filesystem::remove(ca_file_);
  }

  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
  std::string ca_file() const { return ca_file_.string(); }
  const std::string& ca_pem() const { return ca_.cert_pem; }

 private:
  std::unique_ptr<sandbox::World> world_;
  sandbox::CertificateAuthority ca_;
  sandbox::ServerCertificate cert_;
  httplib::SSLServer server_;
  int port_ = 0;
  std::thread thread_;
  std::filesystem::path ca_file_;
};

class CaBundleTest : public ::testing::Test {
 protected:
  CaBundleTest() { env_->SetEnv("AWS_CONFIG_FILE", "/aws/config"); }

  // The provider block: explicit keys (no credential lookups), STS at the server.
  Value Block(const std::string& profile = "") const {
    ValueMap m{{"region", Value::String("us-east-1")},
               {"access_key", Value::String("AKIDEXAMPLE")},
               {"secret_key", Value::String("secret")},
               {"max_retries", Value::Number(0)},
               {"endpoints", Value::Map({{"sts", Value::String(sts_.url())}})}};
    if (!profile.empty()) m["profile"] = Value::String(profile);
    return Value::Object(std::move(m));
  }

  // The provider's settings as the environment makes them; fails the test on errors.
  AwsSettings Settings(const std::string& profile = "") {
    AwsSettings settings;
    Diagnostics diags = ParseAwsSettings(Block(profile), *env_, settings);
    EXPECT_FALSE(diags.HasErrors()) << (diags.empty() ? "" : diags.items()[0].detail);
    return settings;
  }

  Result<XmlResponse> GetCallerIdentity(const AwsSettings& settings) {
    return MakeAwsClient(settings, env_, nullptr)->Query("sts", {"GetCallerIdentity", "2011-06-15", {}});
  }

  // The bundle as a file the environment can read (MapEnvironment's files are its own).
  void ProvideBundleFile() { env_->SetFile(sts_.ca_file(), sts_.ca_pem()); }

  PrivateCaSts sts_;
  std::shared_ptr<MapEnvironment> env_ = std::make_shared<MapEnvironment>();
};

TEST_F(CaBundleTest, WithoutTheBundleTlsFailsSayingWhatToDo) {
  Result<XmlResponse> r = GetCallerIdentity(Settings());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "TlsError") << r.error().ToString();
  EXPECT_NE(r.error().message.find("certificate"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("system's trusted CAs"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("AWS_CA_BUNDLE"), std::string::npos) << r.error().message;
}

TEST_F(CaBundleTest, AwsCaBundleIsTrusted) {
  env_->SetEnv("AWS_CA_BUNDLE", sts_.ca_file());
  ProvideBundleFile();
  AwsSettings settings = Settings();
  EXPECT_EQ(settings.ca_bundle, sts_.ca_file());
  Result<XmlResponse> r = GetCallerIdentity(settings);
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_STREQ(r->result.child("Arn").text().as_string(), kArn);
}

TEST_F(CaBundleTest, ProfileCaBundleIsTrusted) {
  env_->SetFile("/aws/config", "[default]\nregion = eu-west-1\n\n[profile lab]\nca_bundle = " + sts_.ca_file() + "\n");
  ProvideBundleFile();
  EXPECT_TRUE(Settings().ca_bundle.empty());  // "default" names none

  Result<XmlResponse> by_setting = GetCallerIdentity(Settings("lab"));
  ASSERT_TRUE(by_setting.ok()) << by_setting.error().ToString();
  EXPECT_STREQ(by_setting->result.child("Arn").text().as_string(), kArn);

  env_->SetEnv("AWS_PROFILE", "lab");
  Result<XmlResponse> by_env = GetCallerIdentity(Settings());
  ASSERT_TRUE(by_env.ok()) << by_env.error().ToString();
}

TEST_F(CaBundleTest, TheEnvironmentWinsOverTheProfile) {
  env_->SetFile("/aws/config", "[default]\nca_bundle = /etc/other-ca.pem\n");
  env_->SetEnv("AWS_CA_BUNDLE", sts_.ca_file());
  ProvideBundleFile();
  EXPECT_EQ(Settings().ca_bundle, sts_.ca_file());
}

TEST_F(CaBundleTest, ABundleThatCannotBeReadIsAnError) {
  env_->SetEnv("AWS_CA_BUNDLE", "/nonexistent/ca.pem");
  AwsSettings settings;
  Diagnostics diags = ParseAwsSettings(Block(), *env_, settings);
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_EQ(diags.items()[0].summary, "Cannot read the CA bundle");
  EXPECT_NE(diags.items()[0].detail.find("AWS_CA_BUNDLE names /nonexistent/ca.pem"), std::string::npos)
      << diags.items()[0].detail;

  env_->UnsetEnv("AWS_CA_BUNDLE");
  env_->SetFile("/aws/config", "[profile lab]\nca_bundle = ~/missing.pem\n");
  diags = ParseAwsSettings(Block("lab"), *env_, settings);
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_NE(diags.items()[0].detail.find("ca_bundle of profile \"lab\" in /aws/config names /home/test/missing.pem"),
            std::string::npos)
      << diags.items()[0].detail;
}

TEST_F(CaBundleTest, ADifferentCaIsStillRefused) {
  PrivateCaSts other;  // a second CA, trusted instead of the server's
  env_->SetEnv("AWS_CA_BUNDLE", other.ca_file());
  env_->SetFile(other.ca_file(), other.ca_pem());
  Result<XmlResponse> r = GetCallerIdentity(Settings());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "TlsError");
  EXPECT_NE(r.error().message.find(other.ca_file()), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace strata::aws
