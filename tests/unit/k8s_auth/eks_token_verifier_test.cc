// EKS bearer tokens as the sandbox's cluster endpoint checks them: every vector of
// shared/testdata/eks-token verifies (both query orders), and each rule of
// aws-iam-authenticator's Verify — and of STS, which the sandbox plays itself — refuses
// a token that breaks it, saying why.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/base/base64.h"
#include "providers/aws/sts/eks_token.h"
#include "sandbox/kubernetes/auth/eks_token_verifier.h"
#include "sandbox/kubernetes/auth/sts_host.h"

namespace strata::sandbox::k8s_auth {
namespace {

using Clock = std::chrono::system_clock;
using Json = nlohmann::json;

Json ReadVectors(const std::string& name) {
  std::ifstream in(std::filesystem::path(STRATA_SHARED_DIR) / "testdata" / "eks-token" / name);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

std::string Decode64(const std::string& s) { return base::Base64Decode(s).value_or(""); }

Clock::time_point ParseUtc(const std::string& text) {  // "2019-10-23T23:00:00Z"
  std::tm tm{};
  strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return Clock::from_time_t(timegm(&tm));
}

std::string TokenOf(const std::string& url) {
  return "k8s-aws-v1." + base::Base64Encode(url, base::Base64Alphabet::kUrlSafe, /*pad=*/false);
}

// One key the verifier knows.
struct Key {
  std::string access_key, secret, session_token;
  std::optional<Clock::time_point> expiration;
};

AccessKeyLookup Keys(const Key& key) {
  return [key](const std::string& access_key) -> std::optional<AccessKeyRecord> {
    if (access_key != key.access_key) return std::nullopt;
    return AccessKeyRecord{key.secret, key.session_token, key.expiration,
                           CallerIdentity{"arn:aws:iam::111122223333:user/alice", "AIDAEXAMPLE", "111122223333"}};
  };
}

// The upstream authenticator vector: a token for test-cluster in us-west-2.
struct Upstream {
  std::string token, url, cluster = "test-cluster";
  Key key;
  Clock::time_point now;
  EksTokenOptions options;
};

Upstream UpstreamVector() {
  Json v = ReadVectors("aws-iam-authenticator-TestGetWithSTS.json");
  Upstream u;
  u.token = v["expected"]["token"];
  u.url = v["derived_by_report_author"]["presigned_url"];
  u.cluster = v["inputs"]["cluster_id"];
  u.key = {Decode64(v["inputs"]["access_key_id_base64"]), Decode64(v["inputs"]["secret_access_key_base64"]), "", {}};
  u.now = Clock::from_time_t(v["inputs"]["now_unix"].get<time_t>());
  u.options.cluster = u.cluster;
  u.options.partition = "aws";
  return u;
}

TokenVerification Verify(const Upstream& u, const std::string& token) {
  return VerifyEksToken(token, u.options, Keys(u.key), u.now);
}

// `url` with `from` replaced by `to` (which must occur).
std::string Replace(std::string url, const std::string& from, const std::string& to) {
  size_t at = url.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) url.replace(at, from.size(), to);
  return url;
}

void ExpectRefused(const TokenVerification& v, const std::string& reason_part) {
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.reason.find(reason_part), std::string::npos) << "reason: " << v.reason;
}

TEST(EksTokenVerifierTest, AcceptsTheAwsIamAuthenticatorVector) {
  Upstream u = UpstreamVector();
  TokenVerification v = Verify(u, u.token);
  ASSERT_TRUE(v.ok()) << v.reason;
  EXPECT_EQ(v.identity->caller.arn, "arn:aws:iam::111122223333:user/alice");
  EXPECT_EQ(v.identity->access_key_id, u.key.access_key);
  EXPECT_EQ(v.identity->sts_host, "sts.us-west-2.amazonaws.com");
}

TEST(EksTokenVerifierTest, AcceptsEveryAwsCliVectorInBothOrders) {
  Json v = ReadVectors("generated-awscli-vectors.json");
  ASSERT_EQ(v["cases"].size(), 5u);
  for (const Json& c : v["cases"]) {
    const Json& in = c["inputs"];
    Key key{in["access_key_id"], in["secret_access_key"], in["session_token"].is_string() ? in["session_token"] : "", {}};
    EksTokenOptions options{in["cluster_id"], PartitionOfRegion(in["region"]), {}};
    Clock::time_point now = ParseUtc(in["now_utc"]);
    for (const char* order : {"token_awscli_order", "token_sorted_order"}) {
      TokenVerification r = VerifyEksToken(c["expected"][order].get<std::string>(), options, Keys(key), now);
      EXPECT_TRUE(r.ok()) << c["name"] << " " << order << ": " << r.reason;
    }
    // Fourteen minutes later (when the CLI's token says it expires) it still verifies.
    TokenVerification later = VerifyEksToken(c["expected"]["token_sorted_order"].get<std::string>(), options,
                                             Keys(key), now + std::chrono::minutes(14));
    EXPECT_TRUE(later.ok()) << c["name"] << ": " << later.reason;
  }
}

// --- aws-iam-authenticator's format rules ------------------------------------------------------

TEST(EksTokenVerifierTest, RefusesATokenLongerThan4096Bytes) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, "k8s-aws-v1." + std::string(4096, 'A')), "token is too large");
}

TEST(EksTokenVerifierTest, RefusesAnotherPrefix) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, "k8s-aws-v2." + u.token.substr(11)), "missing expected \"k8s-aws-v1.\" prefix");
  ExpectRefused(Verify(u, u.token.substr(11)), "prefix");
}

TEST(EksTokenVerifierTest, RefusesPaddedOrStandardBase64) {
  Upstream u = UpstreamVector();
  std::string url = u.url;  // made a length whose base64 needs padding
  while (url.size() % 3 == 0) url += "&";
  ExpectRefused(Verify(u, "k8s-aws-v1." + base::Base64Encode(url, base::Base64Alphabet::kUrlSafe, true)),
                "illegal base64");
  ExpectRefused(Verify(u, "k8s-aws-v1.aHR0cHM6+/"), "illegal base64");
}

TEST(EksTokenVerifierTest, RefusesAnotherScheme) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "https://", "http://"))), "unexpected scheme \"http\"");
}

TEST(EksTokenVerifierTest, RefusesHostsThatAreNotStsOfThePartition) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "sts.us-west-2.amazonaws.com", "evil.example.com"))),
                "unexpected hostname \"evil.example.com\"");
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "sts.us-west-2.amazonaws.com", "sts.us-west-2.amazonaws.com.cn"))),
                "unexpected hostname");
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "sts.us-west-2.amazonaws.com", "127.0.0.1:4566"))),
                "unexpected hostname \"127.0.0.1:4566\"");
  u.options.partition = "aws-cn";
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "sts.us-west-2.amazonaws.com", "sts.amazonaws.com"))),
                "global endpoint unsupported in partition aws-cn");
}

TEST(EksTokenVerifierTest, StsHostsOfEachPartitionAndVariant) {
  std::string why;
  EXPECT_EQ(StsHostRegion("sts.amazonaws.com", "aws", &why), "us-east-1");
  EXPECT_EQ(StsHostRegion("sts-fips.us-east-2.amazonaws.com", "aws", &why), "us-east-2");
  EXPECT_EQ(StsHostRegion("sts.eu-west-1.api.aws", "aws", &why), "eu-west-1");
  EXPECT_EQ(StsHostRegion("sts.cn-north-1.amazonaws.com.cn", "aws-cn", &why), "cn-north-1");
  EXPECT_EQ(StsHostRegion("sts.us-gov-west-1.amazonaws.com", "aws-us-gov", &why), "us-gov-west-1");
  EXPECT_FALSE(StsHostRegion("sts.cn-north-1.amazonaws.com.cn", "aws", &why));
  EXPECT_FALSE(StsHostRegion("s3.us-east-1.amazonaws.com", "aws", &why));
  EXPECT_FALSE(StsHostRegion("sts.-bad-.amazonaws.com", "aws", &why));
  EXPECT_EQ(PartitionOfRegion("cn-northwest-1"), "aws-cn");
  EXPECT_EQ(PartitionOfRegion("us-gov-east-1"), "aws-us-gov");
  EXPECT_EQ(PartitionOfRegion("eu-central-1"), "aws");
}

TEST(EksTokenVerifierTest, RefusesAnotherPath) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, ".com/?", ".com/x?"))), "unexpected path");
}

TEST(EksTokenVerifierTest, RefusesQueryKeysOutsideTheAllowedSet) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(u.url + "&X-Amz-Foo=1")), "non-whitelisted query parameter \"X-Amz-Foo\"");
}

TEST(EksTokenVerifierTest, RefusesDuplicateAndRepeatedParameters) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(u.url + "&action=GetCallerIdentity")), "duplicate query parameter");
  ExpectRefused(Verify(u, TokenOf(u.url + "&Action=GetCallerIdentity")), "multiple values not supported");
  ExpectRefused(Verify(u, TokenOf(u.url + "&a;b")), "malformed query parameter");
}

TEST(EksTokenVerifierTest, RefusesAnotherAction) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "Action=GetCallerIdentity", "Action=GetSessionToken"))),
                "unexpected action parameter");
}

TEST(EksTokenVerifierTest, RefusesATokenThatDoesNotSignTheClusterHeader) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-SignedHeaders=host%3Bx-k8s-aws-id", "X-Amz-SignedHeaders=host"))),
                "did not sign the x-k8s-aws-id header");
}

TEST(EksTokenVerifierTest, RefusesExpiresOutside0To900) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Expires=60", "X-Amz-Expires=901"))),
                "invalid X-Amz-Expires parameter in pre-signed URL: 901");
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Expires=60", "X-Amz-Expires=-1"))), "invalid X-Amz-Expires");
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Expires=60", "X-Amz-Expires=soon"))), "invalid X-Amz-Expires");
  // 900 passes these checks (and then fails the signature, which covered 60).
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Expires=60", "X-Amz-Expires=900"))), "SignatureDoesNotMatch");
}

TEST(EksTokenVerifierTest, RefusesAMissingOrMalformedDate) {
  Upstream u = UpstreamVector();
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Date=20230428T000000Z&", ""))),
                "X-Amz-Date parameter must be present");
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Date=20230428T000000Z", "X-Amz-Date=2023-04-28"))),
                "error parsing X-Amz-Date");
  ExpectRefused(Verify(u, TokenOf(Replace(u.url, "X-Amz-Date=20230428T000000Z", "X-Amz-Date=20230231T000000Z"))),
                "error parsing X-Amz-Date");
}

TEST(EksTokenVerifierTest, AcceptsFor15MinutesAfterTheDateAndNotLonger) {
  Upstream u = UpstreamVector();
  u.now += std::chrono::minutes(15);
  EXPECT_TRUE(Verify(u, u.token).ok());
  u.now += std::chrono::seconds(1);
  ExpectRefused(Verify(u, u.token), "X-Amz-Date parameter is expired (15 minute expiration)");
}

TEST(EksTokenVerifierTest, RefusesADateMoreThan15MinutesAhead) {
  Upstream u = UpstreamVector();
  u.now -= std::chrono::minutes(15);
  EXPECT_TRUE(Verify(u, u.token).ok());
  u.now -= std::chrono::seconds(1);
  ExpectRefused(Verify(u, u.token), "Signature not yet current");
}

// --- what STS checks, which the sandbox does itself ---------------------------------------------

TEST(EksTokenVerifierTest, RefusesATokenMadeForAnotherCluster) {
  Upstream u = UpstreamVector();
  u.options.cluster = "other-cluster";
  ExpectRefused(Verify(u, u.token), "must be made for the cluster \"other-cluster\"");
}

TEST(EksTokenVerifierTest, RefusesAWrongSecret) {
  Upstream u = UpstreamVector();
  u.key.secret = "not-the-secret";
  ExpectRefused(Verify(u, u.token), "SignatureDoesNotMatch");
}

TEST(EksTokenVerifierTest, RefusesAKeyTheSandboxNeverIssued) {
  Upstream u = UpstreamVector();
  u.key.access_key = "AKIDSOMEONEELSE";
  ExpectRefused(Verify(u, u.token), "InvalidClientTokenId");
  EXPECT_FALSE(VerifyEksToken(u.token, u.options, nullptr, u.now).ok());
}

// Tokens made by Strata's own provider (providers/aws/sts/eks_token.h), as in the sandbox.
struct Made {
  aws::Credentials creds;
  aws::EksTokenRequest request;
  Key key;
  EksTokenOptions options;
  std::string Token() const { return aws::MakeEksToken(creds, request)->token; }
  TokenVerification Verify(const std::string& token) const {
    return VerifyEksToken(token, options, Keys(key), request.now);
  }
};

Made SandboxToken() {
  Made m;
  m.creds.access_key_id = "AKIASTRATASANDBOX001";
  m.creds.secret_access_key = "strata-sandbox-secret-access-key";
  m.request.cluster_id = "demo";
  m.request.region = "eu-west-1";
  m.request.sts_endpoint = "http://127.0.0.1:4566";
  m.request.now = Clock::from_time_t(1767225600);  // 2026-01-01
  m.key = {m.creds.access_key_id, m.creds.secret_access_key, "", {}};
  m.options = {"demo", "aws", {"127.0.0.1", "localhost"}};
  return m;
}

TEST(EksTokenVerifierTest, AcceptsTokensMadeAgainstTheSandboxsOwnStsEndpoint) {
  Made m = SandboxToken();
  TokenVerification v = m.Verify(m.Token());
  ASSERT_TRUE(v.ok()) << v.reason;
  EXPECT_EQ(v.identity->sts_host, "127.0.0.1:4566");
  m.request.sts_endpoint = "http://localhost:9999/";  // another sandbox process's port
  EXPECT_TRUE(m.Verify(m.Token()).ok());
}

TEST(EksTokenVerifierTest, TheSandboxsEndpointIsAcceptedOnlyWhenItIsOwn) {
  Made m = SandboxToken();
  m.options.own_sts_hosts.clear();
  ExpectRefused(m.Verify(m.Token()), "unexpected scheme \"http\"");
  m.request.sts_endpoint = "https://127.0.0.1:4566";
  ExpectRefused(m.Verify(m.Token()), "unexpected hostname");
}

TEST(EksTokenVerifierTest, RefusesAScopeRegionOtherThanTheHosts) {
  Made m = SandboxToken();
  m.request.sts_endpoint = "https://sts.us-east-2.amazonaws.com";
  ExpectRefused(m.Verify(m.Token()), "Credential should be scoped to a valid region");
  m.request.sts_endpoint = "https://sts.eu-west-1.amazonaws.com";
  EXPECT_TRUE(m.Verify(m.Token()).ok());
}

TEST(EksTokenVerifierTest, TemporaryCredentialsNeedTheirSessionTokenAndTime) {
  Made m = SandboxToken();
  m.creds.access_key_id = m.key.access_key = "ASIASANDBOXSESSION01";
  m.creds.session_token = m.key.session_token = "IQoJb3JpZ2luX2VjEsession";
  m.key.expiration = m.request.now + std::chrono::hours(1);
  TokenVerification v = m.Verify(m.Token());
  ASSERT_TRUE(v.ok()) << v.reason;

  Made without = m;
  without.creds.session_token.clear();
  ExpectRefused(without.Verify(without.Token()), "X-Amz-Security-Token");
  Made other = m;
  other.creds.session_token = "IQoJb3JpZ2luX2VjEanother";
  ExpectRefused(other.Verify(other.Token()), "InvalidClientTokenId");
  Made expired = m;
  expired.key.expiration = m.request.now;
  ExpectRefused(expired.Verify(expired.Token()), "ExpiredToken");
}

}  // namespace
}  // namespace strata::sandbox::k8s_auth
