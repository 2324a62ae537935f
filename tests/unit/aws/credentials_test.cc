// The credential chain: each source through MapEnvironment, and the STS / IMDS ones
// against local servers on 127.0.0.1.

#include <gtest/gtest.h>

#include "providers/aws/credentials/credential_chain.h"
#include "providers/aws/credentials/imds_source.h"
#include "providers/aws/credentials/shared_config.h"
#include "providers/aws/http/curl_transport.h"
#include "providers/aws/http/url.h"
#include "test_support.h"

namespace strata::aws {
namespace {

constexpr const char* kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

struct ChainFixture {
  std::shared_ptr<MapEnvironment> env = std::make_shared<MapEnvironment>();
  std::shared_ptr<FakeClock> clock =
      std::make_shared<FakeClock>(TimePoint(std::chrono::seconds(1700000000)));
  std::map<std::string, std::string> endpoints;

  ChainFixture() {
    env->SetEnv("AWS_EC2_METADATA_DISABLED", "true");  // tests opt in to IMDS explicitly
  }
  CredentialContext Context() {
    CredentialContext ctx;
    ctx.env = env;
    ctx.transport = std::make_shared<CurlTransport>();
    ctx.clock = clock;
    ctx.random = std::make_shared<FixedRandom>(0.0);
    ctx.region = "us-east-1";
    ctx.endpoints = endpoints;
    ctx.metadata_timeout = Duration(1000);
    return ctx;
  }
  Result<Credentials> Resolve(CredentialChainSettings settings = {}) {
    return MakeDefaultCredentialChain(settings, Context())->GetCredentials();
  }
};

std::string StsCredentialsXml(const std::string& action, const std::string& key) {
  return "<" + action + "Response><" + action + "Result><Credentials><AccessKeyId>" + key +
         "</AccessKeyId><SecretAccessKey>tempsecrettempsecret</SecretAccessKey>"
         "<SessionToken>temptoken</SessionToken><Expiration>2023-11-14T23:13:20Z</Expiration>"
         "</Credentials></" + action + "Result><ResponseMetadata><RequestId>r</RequestId>"
         "</ResponseMetadata></" + action + "Response>";
}

std::map<std::string, std::string> FormOf(const std::string& body) {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : ParseQuery(body)) out[k] = v;
  return out;
}

TEST(SharedConfigTest, ParsesBothDialects) {
  auto creds = ParseProfileFile(
      "# comment\n[default]\naws_access_key_id = AKID1\nAWS_Secret_Access_Key=s1 ; note\n"
      "\n[dev]\naws_access_key_id=AKID2\n", false);
  EXPECT_EQ(creds["default"]["aws_access_key_id"], "AKID1");
  EXPECT_EQ(creds["default"]["aws_secret_access_key"], "s1");
  EXPECT_EQ(creds["dev"]["aws_access_key_id"], "AKID2");
  auto config = ParseProfileFile(
      "[default]\nregion=us-west-2\n[profile dev]\nrole_arn = arn:aws:iam::1:role/r\n"
      "s3 =\n  max_concurrent_requests = 10\n[sso-session x]\nsso_region=us-east-1\n"
      "[dev2]\nregion=x\n", true);
  EXPECT_EQ(config["default"]["region"], "us-west-2");
  EXPECT_EQ(config["dev"]["role_arn"], "arn:aws:iam::1:role/r");
  EXPECT_EQ(config["dev"]["s3"], "max_concurrent_requests = 10");
  EXPECT_EQ(config.count("sso-session x"), 0u);
  EXPECT_EQ(config.count("dev2"), 0u);  // config sections need the "profile " prefix
}

TEST(CredentialChainTest, ExplicitSettingsComeFirst) {
  ChainFixture f;
  f.env->SetEnv("AWS_ACCESS_KEY_ID", "AKIDENV");
  f.env->SetEnv("AWS_SECRET_ACCESS_KEY", kSecret);
  CredentialChainSettings settings;
  settings.explicit_credentials = Credentials{"AKIDEXPLICIT", kSecret, "", std::nullopt, ""};
  auto creds = f.Resolve(settings);
  ASSERT_TRUE(creds.ok());
  EXPECT_EQ(creds->access_key_id, "AKIDEXPLICIT");
  EXPECT_EQ(creds->source, "provider settings");
}

TEST(CredentialChainTest, EnvironmentWithSessionToken) {
  ChainFixture f;
  f.env->SetEnv("AWS_ACCESS_KEY_ID", "AKIDENV");
  f.env->SetEnv("AWS_SECRET_ACCESS_KEY", kSecret);
  f.env->SetEnv("AWS_SESSION_TOKEN", "tok");
  f.env->SetFile("/home/test/.aws/credentials", "[default]\naws_access_key_id=AKIDFILE\naws_secret_access_key=x\n");
  auto creds = f.Resolve();
  ASSERT_TRUE(creds.ok());
  EXPECT_EQ(creds->access_key_id, "AKIDENV");
  EXPECT_EQ(creds->session_token, "tok");
  EXPECT_EQ(creds->source, "environment");
}

TEST(CredentialChainTest, PartialEnvironmentFailsWithoutLeakingTheSecret) {
  ChainFixture f;
  f.env->SetEnv("AWS_SECRET_ACCESS_KEY", kSecret);
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_NE(creds.error().message.find("AWS_ACCESS_KEY_ID is not"), std::string::npos);
  EXPECT_EQ(creds.error().message.find(kSecret), std::string::npos);
}

TEST(CredentialChainTest, DefaultProfileFromSharedCredentialsFile) {
  ChainFixture f;
  f.env->SetFile("/home/test/.aws/credentials",
                 "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = " +
                     std::string(kSecret) + "\naws_session_token = st\n");
  auto creds = f.Resolve();
  ASSERT_TRUE(creds.ok());
  EXPECT_EQ(creds->access_key_id, "AKIDFILE");
  EXPECT_EQ(creds->secret_access_key, kSecret);
  EXPECT_EQ(creds->session_token, "st");
}

TEST(CredentialChainTest, AwsProfileFromConfigFileAtCustomPaths) {
  ChainFixture f;
  f.env->SetEnv("AWS_PROFILE", "dev");
  f.env->SetEnv("AWS_SHARED_CREDENTIALS_FILE", "/etc/aws/creds");
  f.env->SetEnv("AWS_CONFIG_FILE", "~/custom-config");
  f.env->SetFile("/etc/aws/creds", "[other]\naws_access_key_id=A\naws_secret_access_key=B\n");
  f.env->SetFile("/home/test/custom-config",
                 "[profile dev]\naws_access_key_id=AKIDDEV\naws_secret_access_key=devsecret\n");
  // The default paths hold something else, which must not be read.
  f.env->SetFile("/home/test/.aws/config",
                 "[profile dev]\naws_access_key_id=WRONG\naws_secret_access_key=WRONG\n");
  auto creds = f.Resolve();
  ASSERT_TRUE(creds.ok()) << creds.error().ToString();
  EXPECT_EQ(creds->access_key_id, "AKIDDEV");
  EXPECT_NE(creds->source.find("/home/test/custom-config"), std::string::npos);
}

TEST(CredentialChainTest, ExplicitProfileSkipsEnvironment) {
  ChainFixture f;
  f.env->SetEnv("AWS_ACCESS_KEY_ID", "AKIDENV");
  f.env->SetEnv("AWS_SECRET_ACCESS_KEY", kSecret);
  f.env->SetFile("/home/test/.aws/credentials",
                 "[work]\naws_access_key_id=AKIDWORK\naws_secret_access_key=w\n");
  CredentialChainSettings settings;
  settings.profile = "work";
  auto creds = f.Resolve(settings);
  ASSERT_TRUE(creds.ok());
  EXPECT_EQ(creds->access_key_id, "AKIDWORK");
}

TEST(CredentialChainTest, MissingNamedProfileIsAnError) {
  ChainFixture f;
  f.env->SetEnv("AWS_PROFILE", "nope");
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_NE(creds.error().message.find("profile \"nope\" (from AWS_PROFILE) not found"),
            std::string::npos);
}

TEST(CredentialChainTest, NothingFoundListsEverySourceAndWhy) {
  ChainFixture f;
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  const AwsError& e = creds.error();
  EXPECT_EQ(e.code, "NoCredentialProviders");
  EXPECT_FALSE(e.retryable);
  for (const char* expected :
       {"1. explicit provider settings: access_key/secret_key not set",
        "2. environment variables: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set",
        "3. profile \"default\" role", "4. web identity token: AWS_WEB_IDENTITY_TOKEN_FILE",
        "5. profile \"default\" in the shared credentials file: /home/test/.aws/credentials does not exist",
        "6. profile \"default\" in the config file: /home/test/.aws/config does not exist",
        "7. EC2 instance metadata (IMDSv2): disabled by AWS_EC2_METADATA_DISABLED"})
    EXPECT_NE(e.message.find(expected), std::string::npos) << expected << "\n" << e.message;
}

TEST(CredentialChainTest, PartialProfileKeysDoNotLeakTheSecret) {
  ChainFixture f;
  f.env->SetFile("/home/test/.aws/credentials",
                 "[default]\naws_secret_access_key=" + std::string(kSecret) + "\n");
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_NE(creds.error().message.find("only one of"), std::string::npos);
  EXPECT_EQ(creds.error().message.find(kSecret), std::string::npos);
}

TEST(CredentialChainTest, AssumeRoleThroughSourceProfile) {
  testing::LocalServer sts;
  std::string seen_auth;
  std::map<std::string, std::string> seen_form;
  sts.server().Post("/", [&](const httplib::Request& req, httplib::Response& res) {
    seen_auth = req.get_header_value("Authorization");
    seen_form = FormOf(req.body);
    res.set_content(StsCredentialsXml("AssumeRole", "ASIAASSUMED"), "text/xml");
  });
  sts.Start();
  ChainFixture f;
  f.endpoints = {{"sts", sts.url()}};
  f.env->SetEnv("AWS_PROFILE", "admin");
  f.env->SetFile("/home/test/.aws/credentials",
                 "[base]\naws_access_key_id=AKIDBASE\naws_secret_access_key=" + std::string(kSecret) + "\n");
  f.env->SetFile("/home/test/.aws/config",
                 "[profile admin]\nrole_arn = arn:aws:iam::123456789012:role/admin\n"
                 "source_profile = base\nrole_session_name = ci\nexternal_id = ext-1\n"
                 "duration_seconds = 1800\n");
  auto creds = f.Resolve();
  ASSERT_TRUE(creds.ok()) << creds.error().ToString();
  EXPECT_EQ(creds->access_key_id, "ASIAASSUMED");
  EXPECT_EQ(creds->session_token, "temptoken");
  ASSERT_TRUE(creds->expiration.has_value());
  EXPECT_EQ(FormatRfc3339(*creds->expiration), "2023-11-14T23:13:20Z");
  EXPECT_EQ(seen_form["Action"], "AssumeRole");
  EXPECT_EQ(seen_form["RoleArn"], "arn:aws:iam::123456789012:role/admin");
  EXPECT_EQ(seen_form["RoleSessionName"], "ci");
  EXPECT_EQ(seen_form["ExternalId"], "ext-1");
  EXPECT_EQ(seen_form["DurationSeconds"], "1800");
  EXPECT_EQ(seen_auth.rfind("AWS4-HMAC-SHA256 Credential=AKIDBASE/", 0), 0u);
  EXPECT_NE(creds->Describe().find("assumed role"), std::string::npos);
  EXPECT_EQ(creds->Describe().find("tempsecret"), std::string::npos);
}

TEST(CredentialChainTest, AssumeRoleFailureStopsTheChainWithoutSecrets) {
  testing::LocalServer sts;
  sts.server().Post("/", [&](const httplib::Request&, httplib::Response& res) {
    res.status = 403;
    res.set_content(
        "<ErrorResponse><Error><Code>AccessDenied</Code><Message>not allowed</Message></Error>"
        "<RequestId>r9</RequestId></ErrorResponse>", "text/xml");
  });
  sts.Start();
  ChainFixture f;
  f.endpoints = {{"sts", sts.url()}};
  f.env->SetFile("/home/test/.aws/credentials",
                 "[default]\nrole_arn=arn:aws:iam::1:role/x\nsource_profile=default\n"
                 "aws_access_key_id=AKIDSELF\naws_secret_access_key=" + std::string(kSecret) + "\n");
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_EQ(creds.error().code, "AccessDenied");
  EXPECT_EQ(creds.error().request_id, "r9");
  EXPECT_EQ(creds.error().ToString().find(kSecret), std::string::npos);
}

TEST(CredentialChainTest, RoleChainCycleIsDetected) {
  ChainFixture f;
  f.env->SetFile("/home/test/.aws/config",
                 "[default]\nrole_arn=arn:aws:iam::1:role/a\nsource_profile=b\n"
                 "[profile b]\nrole_arn=arn:aws:iam::1:role/b\nsource_profile=default\n");
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_NE(creds.error().message.find("loops"), std::string::npos);
}

TEST(CredentialChainTest, WebIdentityFromEnvironmentIsUnsigned) {
  testing::LocalServer sts;
  bool had_auth = true;
  std::map<std::string, std::string> form;
  sts.server().Post("/", [&](const httplib::Request& req, httplib::Response& res) {
    had_auth = req.has_header("Authorization");
    form = FormOf(req.body);
    res.set_content(StsCredentialsXml("AssumeRoleWithWebIdentity", "ASIAWEB"), "text/xml");
  });
  sts.Start();
  ChainFixture f;
  f.endpoints = {{"sts", sts.url()}};
  f.env->SetEnv("AWS_WEB_IDENTITY_TOKEN_FILE", "/var/run/secrets/token");
  f.env->SetEnv("AWS_ROLE_ARN", "arn:aws:iam::1:role/ci");
  f.env->SetEnv("AWS_ROLE_SESSION_NAME", "gh-actions");
  f.env->SetFile("/var/run/secrets/token", "eyJhbGciOi.jwt.token\n");
  auto creds = f.Resolve();
  ASSERT_TRUE(creds.ok()) << creds.error().ToString();
  EXPECT_EQ(creds->access_key_id, "ASIAWEB");
  EXPECT_FALSE(had_auth);
  EXPECT_EQ(form["Action"], "AssumeRoleWithWebIdentity");
  EXPECT_EQ(form["WebIdentityToken"], "eyJhbGciOi.jwt.token");
  EXPECT_EQ(form["RoleSessionName"], "gh-actions");
  EXPECT_EQ(form["RoleArn"], "arn:aws:iam::1:role/ci");
}

TEST(CredentialChainTest, WebIdentityWithUnreadableTokenFileFails) {
  ChainFixture f;
  f.env->SetEnv("AWS_WEB_IDENTITY_TOKEN_FILE", "/missing");
  f.env->SetEnv("AWS_ROLE_ARN", "arn:aws:iam::1:role/ci");
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_NE(creds.error().message.find("cannot read web identity token file /missing"),
            std::string::npos);
}

struct ImdsServer {
  testing::LocalServer local;
  std::atomic<int> requests{0};
  std::string expiration = "2023-11-14T23:13:20Z";
  ImdsServer() {
    local.server().Put("/latest/api/token", [this](const httplib::Request& req, httplib::Response& res) {
      ++requests;
      if (req.get_header_value("X-aws-ec2-metadata-token-ttl-seconds").empty()) {
        res.status = 400;
        return;
      }
      res.set_content("imds-token", "text/plain");
    });
    auto authed = [](const httplib::Request& req, httplib::Response& res) {
      if (req.get_header_value("X-aws-ec2-metadata-token") != "imds-token") {
        res.status = 401;
        return false;
      }
      return true;
    };
    local.server().Get("/latest/meta-data/iam/security-credentials/",
                       [this, authed](const httplib::Request& req, httplib::Response& res) {
                         ++requests;
                         if (authed(req, res)) res.set_content("node-role\n", "text/plain");
                       });
    local.server().Get("/latest/meta-data/iam/security-credentials/node-role",
                       [this, authed](const httplib::Request& req, httplib::Response& res) {
                         ++requests;
                         if (!authed(req, res)) return;
                         res.set_content(R"({"Code":"Success","Type":"AWS-HMAC",)"
                                         R"("AccessKeyId":"ASIAIMDS","SecretAccessKey":"imdssecret",)"
                                         R"("Token":"imdstoken","Expiration":")" +
                                             expiration + R"("})",
                                         "application/json");
                       });
    local.Start();
  }
};

TEST(CredentialChainTest, InstanceMetadataV2) {
  ImdsServer imds;
  ChainFixture f;
  f.env->UnsetEnv("AWS_EC2_METADATA_DISABLED");
  f.env->SetEnv("AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.local.url() + "/");
  auto chain = MakeDefaultCredentialChain({}, f.Context());
  auto creds = chain->GetCredentials();
  ASSERT_TRUE(creds.ok()) << creds.error().ToString();
  EXPECT_EQ(creds->access_key_id, "ASIAIMDS");
  EXPECT_EQ(creds->session_token, "imdstoken");
  EXPECT_EQ(creds->source, "instance metadata role node-role");
  EXPECT_EQ(imds.requests, 3);

  // Cached while fresh (expires 2023-11-14T23:13:20Z = start + 3 h 20 min)...
  ASSERT_TRUE(chain->GetCredentials().ok());
  EXPECT_EQ(imds.requests, 3);
  // ...and refreshed within 5 minutes of expiry.
  f.clock->Advance(std::chrono::minutes(196));
  ASSERT_TRUE(chain->GetCredentials().ok());
  EXPECT_EQ(imds.requests, 6);
}

TEST(CredentialChainTest, InstanceMetadataUnreachableIsNotFound) {
  std::string dead;
  {
    testing::LocalServer closed;
    closed.Start();
    dead = closed.url();
  }
  ChainFixture f;
  f.env->UnsetEnv("AWS_EC2_METADATA_DISABLED");
  f.env->SetEnv("AWS_EC2_METADATA_SERVICE_ENDPOINT", dead);
  auto creds = f.Resolve();
  ASSERT_FALSE(creds.ok());
  EXPECT_NE(creds.error().message.find("7. EC2 instance metadata (IMDSv2): no IMDSv2 token from " + dead),
            std::string::npos)
      << creds.error().message;
}

TEST(ImdsSourceTest, EndpointSelection) {
  ChainFixture f;
  EXPECT_EQ(ImdsCredentialsSource(f.Context()).Endpoint(), "http://169.254.169.254");
  f.env->SetEnv("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "IPv6");
  EXPECT_EQ(ImdsCredentialsSource(f.Context()).Endpoint(), "http://[fd00:ec2::254]");
}

TEST(CredentialsTest, DescribeMasksKeys) {
  Credentials c{"AKIAIOSFODNN7EXAMPLE", kSecret, "token", std::nullopt, "environment"};
  std::string d = c.Describe();
  EXPECT_EQ(d, "access key ****MPLE from environment (temporary)");
  EXPECT_EQ(MaskSecret("short"), "****");
}

}  // namespace
}  // namespace strata::aws
