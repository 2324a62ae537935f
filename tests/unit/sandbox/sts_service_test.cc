// The sandbox's STS service called directly: who the sandbox's key pair is, and taking on
// roles that exist in the world's IAM.

#include <gtest/gtest.h>

#include "engine/base/base64.h"
#include "providers/aws/core/clock.h"
#include "tests/unit/sandbox/iam_test_support.h"

namespace strata::sandbox {
namespace {

using testing::QueryResult;
using testing::QueryServiceHarness;

constexpr const char* kTrust =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"sts:AssumeRole"}]})";

class StsServiceTest : public ::testing::Test {
 protected:
  StsServiceTest() : sts_(NewStsService(), "sts", "2011-06-15") {}

  //! Creates a role through the IAM service, in the same world.
  std::string CreateRole(const std::string& name, const std::string& max_session = "3600") {
    std::unique_ptr<Service> iam = NewIamService();
    Request request;
    request.method = "POST";
    request.body = aws::EncodeQuery({{"Action", "CreateRole"},
                                     {"Version", "2010-05-08"},
                                     {"RoleName", name},
                                     {"Path", "/ci/"},
                                     {"MaxSessionDuration", max_session},
                                     {"AssumeRolePolicyDocument", kTrust}});
    request.service = "iam";
    request.region = "us-east-1";
    request.request_id = "iam-req";
    ServiceContext ctx{sts_.world(), request, sts_.settings(), std::chrono::system_clock::now(), "", ""};
    Response response = iam->Handle(ctx);
    pugi::xml_document doc;
    doc.load_string(response.body.c_str());
    return doc.first_element_by_path("CreateRoleResponse/CreateRoleResult/Role/Arn").child_value();
  }

  QueryServiceHarness sts_;
};

void ExpectError(const QueryResult& r, int status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.code << ": " << r.message;
  EXPECT_EQ(r.code, code) << r.message;
}

TEST_F(StsServiceTest, GetCallerIdentityNamesTheSandboxUser) {
  QueryResult r = sts_.Call("GetCallerIdentity");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.doc->first_child().name(), std::string("GetCallerIdentityResponse"));
  EXPECT_EQ(r.doc->first_child().attribute("xmlns").value(),
            std::string("https://sts.amazonaws.com/doc/2011-06-15/"));
  EXPECT_EQ(r.Text("Account"), "111122223333");
  EXPECT_EQ(r.Text("Arn"), "arn:aws:iam::111122223333:user/sandbox");
  std::string user_id = r.Text("UserId");
  EXPECT_EQ(user_id.substr(0, 4), "AIDA");
  EXPECT_EQ(user_id.size(), 21u);
  EXPECT_EQ(sts_.Call("GetCallerIdentity").Text("UserId"), user_id);  // stable
}

TEST_F(StsServiceTest, GetCallerIdentityAnswersAPresignedGet) {
  // What an EKS token carries: the parameters in the URL's query string.
  QueryResult r = sts_.Call("GetCallerIdentity", {{"X-Amz-Algorithm", "AWS4-HMAC-SHA256"}, {"X-Amz-Expires", "60"}}, "GET");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.Text("Account"), "111122223333");
}

TEST_F(StsServiceTest, AssumeRoleIssuesTemporaryCredentials) {
  std::string arn = CreateRole("deployer");
  ASSERT_EQ(arn, "arn:aws:iam::111122223333:role/ci/deployer");
  QueryResult r = sts_.Call("AssumeRole", {{"RoleArn", arn}, {"RoleSessionName", "build-42"}, {"DurationSeconds", "900"}});
  ASSERT_TRUE(r.ok()) << r.code << ": " << r.message;
  std::string key = r.Text("Credentials/AccessKeyId");
  EXPECT_EQ(key.substr(0, 4), "ASIA");
  EXPECT_EQ(key.size(), 20u);
  EXPECT_EQ(r.Text("Credentials/SecretAccessKey").size(), 40u);
  EXPECT_FALSE(r.Text("Credentials/SessionToken").empty());
  aws::TimePoint expiration;
  ASSERT_TRUE(aws::ParseRfc3339(r.Text("Credentials/Expiration"), &expiration));
  EXPECT_EQ(r.Text("Credentials/Expiration"), "2026-03-01T10:15:00.000Z");
  EXPECT_EQ(r.Text("AssumedRoleUser/Arn"), "arn:aws:sts::111122223333:assumed-role/deployer/build-42");
  std::string assumed_id = r.Text("AssumedRoleUser/AssumedRoleId");
  EXPECT_EQ(assumed_id.substr(0, 4), "AROA");
  EXPECT_EQ(assumed_id.substr(assumed_id.size() - 9), ":build-42");
  // Two sessions get different keys.
  EXPECT_NE(sts_.Call("AssumeRole", {{"RoleArn", arn}, {"RoleSessionName", "again"}}).Text("Credentials/AccessKeyId"), key);
}

TEST_F(StsServiceTest, AssumeRoleRefusesARoleThatDoesNotExist) {
  ExpectError(sts_.Call("AssumeRole", {{"RoleArn", "arn:aws:iam::111122223333:role/ghost"}, {"RoleSessionName", "s1"}}),
              403, "AccessDenied");
  std::string arn = CreateRole("real");
  // The path is part of the ARN: the right name with the wrong path is not the role.
  ExpectError(sts_.Call("AssumeRole", {{"RoleArn", "arn:aws:iam::111122223333:role/real"}, {"RoleSessionName", "s1"}}),
              403, "AccessDenied");
  ExpectError(sts_.Call("AssumeRole", {{"RoleArn", arn}}), 400, "ValidationError");
  ExpectError(sts_.Call("AssumeRole", {{"RoleArn", arn}, {"RoleSessionName", "bad name"}}), 400, "ValidationError");
  ExpectError(sts_.Call("AssumeRole", {{"RoleArn", arn}, {"RoleSessionName", "s1"}, {"DurationSeconds", "7200"}}), 400,
              "ValidationError");  // beyond the role's MaxSessionDuration
}

TEST_F(StsServiceTest, AssumeRoleWithWebIdentityReportsTheToken) {
  std::string arn = CreateRole("irsa", "7200");
  std::string payload = R"({"iss":"https://oidc.eks.us-east-1.amazonaws.com/id/ABC","sub":"system:serviceaccount:default:app","aud":"sts.amazonaws.com"})";
  std::string token = "eyJhbGciOiJSUzI1NiJ9." + base::Base64Encode(payload, base::Base64Alphabet::kUrlSafe, /*pad=*/false) + ".c2ln";
  QueryResult r = sts_.Call("AssumeRoleWithWebIdentity",
                            {{"RoleArn", arn}, {"RoleSessionName", "pod"}, {"WebIdentityToken", token}, {"DurationSeconds", "7200"}});
  ASSERT_TRUE(r.ok()) << r.code << ": " << r.message;
  EXPECT_EQ(r.Text("Credentials/AccessKeyId").substr(0, 4), "ASIA");
  EXPECT_EQ(r.Text("SubjectFromWebIdentityToken"), "system:serviceaccount:default:app");
  EXPECT_EQ(r.Text("Audience"), "sts.amazonaws.com");
  EXPECT_EQ(r.Text("Provider"), "oidc.eks.us-east-1.amazonaws.com/id/ABC");
  EXPECT_EQ(r.Text("AssumedRoleUser/Arn"), "arn:aws:sts::111122223333:assumed-role/irsa/pod");

  ExpectError(sts_.Call("AssumeRoleWithWebIdentity", {{"RoleArn", arn}, {"RoleSessionName", "pod"}}), 400,
              "ValidationError");
  ExpectError(sts_.Call("AssumeRoleWithWebIdentity",
                        {{"RoleArn", "arn:aws:iam::111122223333:role/none"}, {"RoleSessionName", "pod"}, {"WebIdentityToken", token}}),
              403, "AccessDenied");
}

TEST_F(StsServiceTest, GetSessionTokenAndUnknownActions) {
  QueryResult r = sts_.Call("GetSessionToken");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.Text("Credentials/AccessKeyId").substr(0, 4), "ASIA");
  ExpectError(sts_.Call("Teleport"), 400, "InvalidAction");
}

}  // namespace
}  // namespace strata::sandbox
