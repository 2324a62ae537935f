// The EKS bearer token against shared/testdata/eks-token: the aws-iam-authenticator
// vector and the five AWS CLI-generated ones (byte-exact in sorted order; the CLI's own
// order compared as a parameter set).

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "engine/base/base64.h"
#include "providers/aws/sts/eks_token.h"
#include "providers/aws/signing/sigv4_signer.h"
#include "providers/aws/http/url.h"
#include "test_support.h"

namespace strata::aws {
namespace {

using testing::ReadFileOrEmpty;
using testing::SharedTestdata;

std::string Decode64(const std::string& s) {
  auto out = base::Base64Decode(s, base::Base64Input::kLenient);
  EXPECT_TRUE(out);
  return out.value_or("");
}

std::map<std::string, std::string> QueryMap(const std::string& url) {
  Url u;
  EXPECT_TRUE(ParseUrl(url, &u));
  std::map<std::string, std::string> out;
  for (auto& [k, v] : ParseQuery(u.query)) out[k] = v;
  return out;
}

TEST(EksTokenTest, AwsIamAuthenticatorVector) {
  auto v = nlohmann::json::parse(
      ReadFileOrEmpty(SharedTestdata() / "eks-token" / "aws-iam-authenticator-TestGetWithSTS.json"));
  const auto& in = v["inputs"];
  Credentials creds;
  creds.access_key_id = Decode64(in["access_key_id_base64"]);
  creds.secret_access_key = Decode64(in["secret_access_key_base64"]);
  creds.session_token = in["session_token"];
  EksTokenRequest request;
  request.cluster_id = in["cluster_id"];
  request.region = in["region"];
  request.now = TimePoint(std::chrono::seconds(in["now_unix"].get<int64_t>()));
  auto token = MakeEksToken(creds, request);
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(token->token, v["expected"]["token"]);
  EXPECT_EQ(token->presigned_url, v["derived_by_report_author"]["presigned_url"]);
  EXPECT_EQ(FormatRfc3339(token->expiration), v["expected"]["expiration_utc"]);
  EXPECT_EQ(nlohmann::json::parse(token->ExecCredentialJson()),
            v["derived_by_report_author"]["exec_credential_v1beta1"]);
}

TEST(EksTokenTest, AwsCliGeneratedVectors) {
  auto v = nlohmann::json::parse(
      ReadFileOrEmpty(SharedTestdata() / "eks-token" / "generated-awscli-vectors.json"));
  ASSERT_EQ(v["cases"].size(), 5u);
  for (const auto& c : v["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const auto& in = c["inputs"];
    const auto& expected = c["expected"];
    Credentials creds;
    creds.access_key_id = in["access_key_id"];
    creds.secret_access_key = in["secret_access_key"];
    if (in["session_token"].is_string()) creds.session_token = in["session_token"];
    EksTokenRequest request;
    request.cluster_id = in["cluster_id"];
    request.region = in["region"];
    if (in["sts_endpoint_mode"].get<std::string>().rfind("legacy", 0) == 0)
      request.sts_endpoint = "https://sts.amazonaws.com";
    ASSERT_TRUE(ParseRfc3339(in["now_utc"].get<std::string>(), &request.now));

    auto token = MakeEksToken(creds, request);
    ASSERT_TRUE(token.ok());
    EXPECT_EQ(token->presigned_url, expected["presigned_url_sorted_order"]);
    EXPECT_EQ(token->token, expected["token_sorted_order"]);
    EXPECT_EQ(token->token.find('='), std::string::npos);
    EXPECT_EQ(QueryMap(token->presigned_url),
              QueryMap(expected["presigned_url_awscli_order"].get<std::string>()));
    EXPECT_EQ(FormatRfc3339(token->expiration), expected["expiration_utc"]);
    // The CLI's ExecCredential carries its own (CLI-order) token: compare the rest.
    auto exec = nlohmann::json::parse(token->ExecCredentialJson());
    auto expected_exec = expected["exec_credential_v1beta1"];
    EXPECT_EQ(expected_exec["status"]["token"], expected["token_awscli_order"]);
    exec["status"].erase("token");
    expected_exec["status"].erase("token");
    EXPECT_EQ(exec, expected_exec);

    // The intermediate products match too.
    HttpRequest http{"GET",
                     (request.sts_endpoint.empty()
                          ? "https://sts." + request.region + "." + std::string(request.region.rfind("cn-", 0) == 0 ? "amazonaws.com.cn" : "amazonaws.com")
                          : request.sts_endpoint) +
                         "/?Action=GetCallerIdentity&Version=2011-06-15",
                     {{"x-k8s-aws-id", request.cluster_id}},
                     "",
                     {},
                     {}};
    SigningOptions options;
    options.region = request.region;
    options.service = "sts";
    options.time = request.now;
    auto details = PresignRequest(http, creds, options, std::chrono::seconds(60));
    ASSERT_TRUE(details.ok());
    EXPECT_EQ(details->canonical_request, expected["canonical_request"]);
    EXPECT_EQ(details->string_to_sign, expected["string_to_sign"]);
    EXPECT_EQ(details->signature, expected["signature"]);
  }
}

TEST(EksTokenTest, TokenDecodesToTheSignedUrl) {
  Credentials creds{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "TOKEN", {}, ""};
  EksTokenRequest request{"demo", "us-west-2", "http://127.0.0.1:4566", TimePoint{}};
  auto token = MakeEksToken(creds, request);
  ASSERT_TRUE(token.ok());
  ASSERT_EQ(token->token.rfind("k8s-aws-v1.", 0), 0u);
  auto decoded = base::Base64Decode(token->token.substr(11), base::Base64Input::kLenient);
  ASSERT_TRUE(decoded);
  std::string url = *decoded;
  EXPECT_EQ(url, token->presigned_url);
  auto q = QueryMap(url);
  EXPECT_EQ(q["X-Amz-SignedHeaders"], "host;x-k8s-aws-id");
  EXPECT_EQ(q["X-Amz-Expires"], "60");
  EXPECT_EQ(q["X-Amz-Security-Token"], "TOKEN");
  EXPECT_EQ(url.rfind("http://127.0.0.1:4566/?", 0), 0u);
}

}  // namespace
}  // namespace strata::aws
