// The sandbox's SigV4 verifier against what the provider's signer produces: header
// signatures over odd paths, queries and bodies, presigned URLs (the EKS token), and the
// ways a signature is refused.

#include <gtest/gtest.h>

#include "providers/aws/sts/eks_token.h"
#include "providers/aws/signing/sigv4_signer.h"
#include "providers/aws/http/url.h"
#include "sandbox/sigv4_verifier.h"

namespace strata::sandbox {
namespace {

const aws::Credentials kCreds{"AKIASTRATASANDBOX001", "secret", "", std::nullopt, "test"};

// What a server receives for `request`: the raw target and lower-case headers, Host
// included as curl sends it.
ReceivedRequest Received(const aws::HttpRequest& request) {
  aws::Url url;
  EXPECT_TRUE(aws::ParseUrl(request.url, &url));
  ReceivedRequest out{request.method, url.path + (url.query.empty() ? "" : "?" + url.query), {}, request.body};
  out.headers["host"] = url.HostHeader();
  for (const auto& [name, value] : request.headers) out.headers[aws::ToLower(name)] = value;
  return out;
}

SigV4Check Verify(const ReceivedRequest& received, std::chrono::system_clock::time_point now,
                  const std::string& secret = "secret") {
  SigV4Check check;
  std::optional<SigV4Auth> auth = ParseSigV4(received, &check);
  if (!auth) return check;
  return VerifySigV4(*auth, received, secret, now);
}

aws::HttpRequest SignedRequest(std::chrono::system_clock::time_point now) {
  aws::HttpRequest request;
  request.method = "POST";
  request.url = "http://127.0.0.1:4566/clusters/my%20cluster/node-groups?b=2&a=x%2Fy&empty=";
  request.headers = {{"Content-Type", "application/json"}, {"X-Custom", "  two   spaces "}};
  request.body = R"({"nodegroupName":"ng"})";
  aws::SigningOptions options;
  options.region = "us-west-2";
  options.service = "eks";
  options.time = now;
  EXPECT_TRUE(aws::SignRequest(request, kCreds, options).ok());
  return request;
}

TEST(SandboxSigV4Test, AcceptsWhatTheSignerSigns) {
  auto now = std::chrono::system_clock::now();
  ReceivedRequest received = Received(SignedRequest(now));
  SigV4Check check;
  auto auth = ParseSigV4(received, &check);
  ASSERT_TRUE(auth.has_value()) << check.message;
  EXPECT_FALSE(auth->presigned);
  EXPECT_EQ(auth->access_key, "AKIASTRATASANDBOX001");
  EXPECT_EQ(auth->region, "us-west-2");
  EXPECT_EQ(auth->service, "eks");
  EXPECT_EQ(Verify(received, now).problem, SigV4Problem::None) << Verify(received, now).canonical_request;
}

TEST(SandboxSigV4Test, AnyChangeIsAMismatch) {
  auto now = std::chrono::system_clock::now();
  ReceivedRequest body = Received(SignedRequest(now));
  body.body += " ";
  EXPECT_EQ(Verify(body, now).problem, SigV4Problem::Mismatch);
  ReceivedRequest query = Received(SignedRequest(now));
  query.target += "&c=3";
  EXPECT_EQ(Verify(query, now).problem, SigV4Problem::Mismatch);
  ReceivedRequest header = Received(SignedRequest(now));
  header.headers["x-custom"] = "other";
  EXPECT_EQ(Verify(header, now).problem, SigV4Problem::Mismatch);
  EXPECT_EQ(Verify(Received(SignedRequest(now)), now, "other-secret").problem, SigV4Problem::Mismatch);
}

TEST(SandboxSigV4Test, UnsignedHeadersMayChange) {
  auto now = std::chrono::system_clock::now();
  ReceivedRequest received = Received(SignedRequest(now));
  received.headers["user-agent"] = "anything";
  EXPECT_EQ(Verify(received, now).problem, SigV4Problem::None);
}

TEST(SandboxSigV4Test, RequestTimeMustBeWithinFifteenMinutes) {
  auto now = std::chrono::system_clock::now();
  ReceivedRequest received = Received(SignedRequest(now - std::chrono::minutes(16)));
  SigV4Check check = Verify(received, now);
  EXPECT_EQ(check.problem, SigV4Problem::Expired);
  EXPECT_EQ(check.message.rfind("Signature expired: ", 0), 0u) << check.message;
  EXPECT_EQ(Verify(Received(SignedRequest(now + std::chrono::minutes(16))), now).problem, SigV4Problem::Expired);
  EXPECT_EQ(Verify(Received(SignedRequest(now - std::chrono::minutes(14))), now).problem, SigV4Problem::None);
}

TEST(SandboxSigV4Test, AcceptsThePresignedUrlOfAnEksToken) {
  auto now = std::chrono::system_clock::now();
  auto token = aws::MakeEksToken(kCreds, {"demo", "us-east-1", "http://127.0.0.1:4566", now});
  ASSERT_TRUE(token.ok());
  aws::HttpRequest request;
  request.url = token->presigned_url;
  request.headers = {{"x-k8s-aws-id", "demo"}};
  ReceivedRequest received = Received(request);
  SigV4Check check;
  auto auth = ParseSigV4(received, &check);
  ASSERT_TRUE(auth.has_value()) << check.message;
  EXPECT_TRUE(auth->presigned);
  EXPECT_EQ(auth->service, "sts");
  EXPECT_EQ(Verify(received, now).problem, SigV4Problem::None);
  // The token names its cluster: presented for another, it does not verify.
  received.headers["x-k8s-aws-id"] = "other";
  EXPECT_EQ(Verify(received, now).problem, SigV4Problem::Mismatch);
  // STS honours it for 15 minutes, whatever its X-Amz-Expires of 60 seconds says.
  received.headers["x-k8s-aws-id"] = "demo";
  EXPECT_EQ(Verify(received, now + std::chrono::minutes(10)).problem, SigV4Problem::None);
  EXPECT_EQ(Verify(received, now + std::chrono::minutes(16)).problem, SigV4Problem::Expired);
}

TEST(SandboxSigV4Test, MissingAndMalformedSignatures) {
  SigV4Check check;
  ReceivedRequest none{"GET", "/?Action=GetCallerIdentity", {{"host", "h"}}, ""};
  EXPECT_FALSE(ParseSigV4(none, &check).has_value());
  EXPECT_EQ(check.problem, SigV4Problem::Missing);

  ReceivedRequest basic{"GET", "/", {{"authorization", "Basic dXNlcjpwYXNz"}}, ""};
  EXPECT_FALSE(ParseSigV4(basic, &check).has_value());
  EXPECT_EQ(check.problem, SigV4Problem::Malformed);

  ReceivedRequest no_scope{"GET", "/", {{"authorization", "AWS4-HMAC-SHA256 Credential=AK, SignedHeaders=host, Signature=00"}}, ""};
  EXPECT_FALSE(ParseSigV4(no_scope, &check).has_value());
  EXPECT_EQ(check.problem, SigV4Problem::Malformed);
}

}  // namespace
}  // namespace strata::sandbox
