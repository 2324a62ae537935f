// The sandbox's AWS front end, driven through the provider's own client over HTTP:
// routing by credential scope, signature checks, AWS's error shapes, injected throttling,
// faults and latency, ports, and what survives a restart.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <vector>

#include "providers/aws/protocol/error_parser.h"
#include "providers/aws/protocol/json_protocol.h"
#include "sandbox/world.h"
#include "tests/unit/sandbox/server_test_support.h"

namespace strata::sandbox {
namespace {

using testing::ClientFor;
using testing::ClientOptions;
using testing::StartSandbox;

aws::QueryRequest GetCallerIdentity() { return {"GetCallerIdentity", "2011-06-15", {}}; }
aws::QueryRequest DescribeVpcs() { return {"DescribeVpcs", "2016-11-15", {}}; }
aws::RestJsonRequest ListClusters() { return {"GET", "/clusters", {}, std::nullopt, {}}; }

// The STS call reached the service: its answer, or (while STS is a placeholder) its refusal.
void ExpectReachedSts(const aws::Result<aws::XmlResponse>& r, const Sandbox& sandbox) {
  if (r.ok()) {
    EXPECT_NE(std::string(r->result.child("Arn").text().as_string()).find(sandbox.settings().account_id),
              std::string::npos);
    return;
  }
  EXPECT_EQ(r.error().code, "InvalidAction") << r.error().ToString();
  EXPECT_EQ(r.error().http_status, 400);
}

std::filesystem::path TempFile(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("strata-sandbox-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / name;
  std::filesystem::remove(path);
  return path;
}

TEST(SandboxServerTest, SignedCallIsRoutedByCredentialScope) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox);
  auto r = client.Query("sts", GetCallerIdentity());
  ExpectReachedSts(r, *sandbox);
  if (!r.ok()) {
    EXPECT_FALSE(r.error().request_id.empty());
  }
  EXPECT_EQ(sandbox->stats().calls, 1u);
  EXPECT_EQ(sandbox->stats().bad_signatures, 0u);
}

TEST(SandboxServerTest, LargeBodiesAreVerified) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox);
  aws::QueryRequest call = GetCallerIdentity();
  call.Add("Padding", std::string(200000, 'x'));  // curl sends "Expect: 100-continue"
  ExpectReachedSts(client.Query("sts", call), *sandbox);
  EXPECT_EQ(sandbox->stats().bad_signatures, 0u);
}

TEST(SandboxServerTest, WrongSecretIsSignatureDoesNotMatch) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Secret("not-the-secret"));
  auto r = client.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "SignatureDoesNotMatch");
  EXPECT_EQ(r.error().http_status, 403);
  EXPECT_EQ(r.error().message.rfind("The request signature we calculated does not match", 0), 0u);
  EXPECT_FALSE(r.error().request_id.empty());
  EXPECT_EQ(sandbox->stats().bad_signatures, 1u);
}

TEST(SandboxServerTest, WrongSecretOnRestJsonIsInvalidSignatureException) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Secret("not-the-secret"));
  auto r = client.RestJson("eks", ListClusters());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "InvalidSignatureException");
  EXPECT_EQ(r.error().http_status, 403);
}

TEST(SandboxServerTest, UnknownAccessKeyIsRefusedInEachProtocol) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Keys("AKIAUNKNOWN000000000", ""));
  auto sts = client.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(sts.ok());
  EXPECT_EQ(sts.error().code, "InvalidClientTokenId");
  EXPECT_EQ(sts.error().http_status, 403);
  EXPECT_EQ(sts.error().message, "The security token included in the request is invalid.");

  auto eks = client.RestJson("eks", ListClusters());
  ASSERT_FALSE(eks.ok());
  EXPECT_EQ(eks.error().code, "UnrecognizedClientException");
  EXPECT_EQ(eks.error().http_status, 403);

  auto ec2 = client.Query("ec2", DescribeVpcs());
  ASSERT_FALSE(ec2.ok());
  EXPECT_EQ(ec2.error().code, "AuthFailure");  // what EC2 itself answers
  EXPECT_EQ(ec2.error().http_status, 401);
  EXPECT_EQ(sandbox->stats().bad_signatures, 3u);
}

TEST(SandboxServerTest, ExpiredSignatureIsRefused) {
  auto sandbox = StartSandbox();
  auto an_hour_ago = std::make_shared<aws::FakeClock>(std::chrono::system_clock::now() - std::chrono::hours(1));
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Clock(an_hour_ago));
  auto r = client.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "SignatureDoesNotMatch");
  EXPECT_EQ(r.error().http_status, 403);
  EXPECT_EQ(r.error().message.rfind("Signature expired: ", 0), 0u) << r.error().message;
}

TEST(SandboxServerTest, UnsignedRequestIsMissingAuthenticationToken) {
  auto sandbox = StartSandbox();
  aws::CurlTransport transport;
  aws::HttpRequest request;
  request.method = "POST";
  request.url = sandbox->url() + "/";
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  request.body = "Action=GetCallerIdentity&Version=2011-06-15";
  aws::TransportResult sent = transport.Send(request);
  ASSERT_TRUE(sent.ok());
  aws::AwsError error = aws::ParseErrorResponse(sent.response());
  EXPECT_EQ(error.code, "MissingAuthenticationToken");
  EXPECT_EQ(error.http_status, 403);
  EXPECT_FALSE(aws::RequestIdFromHeaders(sent.response().headers).empty());
}

TEST(SandboxServerTest, UnknownServiceIsABadRequestNamingIt) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox);
  auto r = client.Query("sns", {"ListTopics", "2010-03-31", {}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().http_status, 400);
  EXPECT_EQ(r.error().code, "UnknownService");
  EXPECT_NE(r.error().message.find("\"sns\""), std::string::npos) << r.error().message;
}

TEST(SandboxServerTest, WithoutVerificationAnySecretIsAccepted) {
  SandboxSettings settings;
  settings.verify_signatures = false;
  auto sandbox = StartSandbox(settings);
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Secret("whatever"));
  ExpectReachedSts(client.Query("sts", GetCallerIdentity()), *sandbox);
}

TEST(SandboxServerTest, KeysStoredInTheWorldAreAccepted) {
  std::filesystem::path path = TempFile("keys.db");
  {
    auto world = World::Open(path.string());
    world->Begin();
    world->Put("access_key", "ASIATEMPORARY0000001", {{"secret_access_key", "temporary-secret"}});
    world->Commit();
  }
  SandboxSettings settings;
  settings.state_path = path.string();
  auto sandbox = StartSandbox(settings);
  aws::AwsClient good = ClientFor(*sandbox, ClientOptions::Keys("ASIATEMPORARY0000001", "temporary-secret"));
  ExpectReachedSts(good.Query("sts", GetCallerIdentity()), *sandbox);
  aws::AwsClient bad = ClientFor(*sandbox, ClientOptions::Keys("ASIATEMPORARY0000001", "guess"));
  auto r = bad.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "SignatureDoesNotMatch");
}

TEST(SandboxServerTest, ThrottlingSpeaksEachProtocol) {
  SandboxSettings settings;
  settings.throttle_probability = 1;
  auto sandbox = StartSandbox(settings);
  aws::AwsClient client = ClientFor(*sandbox);

  auto sts = client.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(sts.ok());
  EXPECT_EQ(sts.error().code, "Throttling");
  EXPECT_EQ(sts.error().http_status, 400);
  EXPECT_EQ(sts.error().message.rfind("Rate exceeded", 0), 0u);
  EXPECT_TRUE(sts.error().retryable);

  auto ec2 = client.Query("ec2", DescribeVpcs());
  ASSERT_FALSE(ec2.ok());
  EXPECT_EQ(ec2.error().code, "RequestLimitExceeded");
  EXPECT_EQ(ec2.error().http_status, 503);

  auto eks = client.RestJson("eks", ListClusters());
  ASSERT_FALSE(eks.ok());
  EXPECT_EQ(eks.error().code, "ThrottlingException");
  EXPECT_EQ(eks.error().http_status, 429);
  EXPECT_EQ(sandbox->stats().throttled, 3u);
}

TEST(SandboxServerTest, ClientRetriesThrottlingUntilItGivesUp) {
  SandboxSettings settings;
  settings.throttle_probability = 1;
  auto sandbox = StartSandbox(settings);
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Retries(2));
  EXPECT_FALSE(client.Query("sts", GetCallerIdentity()).ok());
  EXPECT_EQ(sandbox->stats().throttled, 3u);
  EXPECT_EQ(sandbox->stats().calls, 3u);
}

TEST(SandboxServerTest, FaultsSpeakEachProtocol) {
  SandboxSettings settings;
  settings.fault_probability = 1;
  auto sandbox = StartSandbox(settings);
  aws::AwsClient client = ClientFor(*sandbox);
  auto sts = client.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(sts.ok());
  EXPECT_EQ(sts.error().code, "InternalError");
  EXPECT_EQ(sts.error().http_status, 500);
  auto eks = client.RestJson("eks", ListClusters());
  ASSERT_FALSE(eks.ok());
  EXPECT_EQ(eks.error().code, "InternalFailure");
  EXPECT_EQ(eks.error().http_status, 500);
  EXPECT_EQ(sandbox->stats().faults, 2u);
}

// A lost answer is a change made whose 500 hides it: reads keep their answers, and the
// object a lost CreateVpc made is there to be found.
TEST(SandboxServerTest, LostRepliesHideChangesThatWereMade) {
  SandboxSettings settings;
  settings.lost_reply_probability = 1;
  auto sandbox = StartSandbox(settings);
  aws::AwsClient client = ClientFor(*sandbox, ClientOptions::Retries(0));
  EXPECT_TRUE(client.Query("sts", GetCallerIdentity()).ok()) << "a read changes nothing, so its answer arrives";
  auto created = client.Query("ec2", aws::QueryRequest{"CreateVpc", "2016-11-15", {{"CidrBlock", "10.9.0.0/16"}}});
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().http_status, 500);
  EXPECT_TRUE(created.error().outcome_unknown);
  auto listed = client.Query("ec2", aws::QueryRequest{"DescribeVpcs", "2016-11-15", {}});
  ASSERT_TRUE(listed.ok());
  int vpcs = 0;
  for (pugi::xml_node item : listed->result.child("vpcSet").children("item")) {
    vpcs += std::string(item.child_value("cidrBlock")) == "10.9.0.0/16";
  }
  EXPECT_EQ(vpcs, 1) << "the lost create made its VPC";
  EXPECT_EQ(sandbox->stats().lost_replies, 1u);
}

TEST(SandboxServerTest, SameSeedRefusesTheSameCalls) {
  auto outcomes = [](uint64_t seed) {
    SandboxSettings settings;
    settings.seed = seed;
    settings.throttle_probability = 0.5;
    auto sandbox = StartSandbox(settings);
    aws::AwsClient client = ClientFor(*sandbox);
    std::string out;
    for (int i = 0; i < 16; ++i) {
      auto r = client.Query("sts", GetCallerIdentity());
      out += !r.ok() && r.error().code == "Throttling" ? 'T' : '.';
    }
    return out;
  };
  std::string first = outcomes(7);
  EXPECT_EQ(first, outcomes(7));
  EXPECT_NE(first.find('T'), std::string::npos) << first;
  EXPECT_NE(first.find('.'), std::string::npos) << first;
}

TEST(SandboxServerTest, LatencyDelaysEveryCallButCallsOverlap) {
  SandboxSettings settings;
  settings.latency = std::chrono::milliseconds(300);
  auto sandbox = StartSandbox(settings);
  aws::AwsClient client = ClientFor(*sandbox);
  auto start = std::chrono::steady_clock::now();
  client.Query("sts", GetCallerIdentity());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));

  start = std::chrono::steady_clock::now();
  std::vector<std::future<void>> calls;
  for (int i = 0; i < 4; ++i)
    calls.push_back(std::async(std::launch::async, [&] { client.Query("sts", GetCallerIdentity()); }));
  for (auto& call : calls) call.get();
  // One after the other they would take 1200 ms.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1000));
}

TEST(SandboxServerTest, WorldAndCaSurviveARestart) {
  std::filesystem::path path = TempFile("restart.db");
  SandboxSettings settings;
  settings.state_path = path.string();
  std::string first_ca;
  {
    auto sandbox = StartSandbox(settings);
    first_ca = sandbox->ca_pem();
    ASSERT_NE(first_ca.find("BEGIN CERTIFICATE"), std::string::npos);
    sandbox->Stop();
    auto world = World::Open(path.string());  // the sandbox has let go of the file
    world->Begin();
    world->Put("thing", "t-1", {{"name", "kept"}});
    world->Commit();
  }
  auto sandbox = StartSandbox(settings);
  EXPECT_EQ(sandbox->ca_pem(), first_ca);
  sandbox->Stop();
  auto world = World::Open(path.string());
  auto thing = world->Get("thing", "t-1");
  ASSERT_TRUE(thing.has_value());
  EXPECT_EQ((*thing)["name"], "kept");
}

TEST(SandboxServerTest, InMemorySandboxesHaveTheirOwnCa) {
  auto a = StartSandbox();
  auto b = StartSandbox();
  EXPECT_NE(a->ca_pem(), b->ca_pem());
}

TEST(SandboxServerTest, TwoSandboxesGetDifferentPorts) {
  auto a = StartSandbox();
  auto b = StartSandbox();
  EXPECT_GT(a->port(), 0);
  EXPECT_NE(a->port(), b->port());
  EXPECT_NE(a->cluster_url(), b->cluster_url());
  EXPECT_EQ(a->url(), "http://127.0.0.1:" + std::to_string(a->port()));
}

TEST(SandboxServerTest, TakenPortIsAnError) {
  auto a = StartSandbox();
  SandboxSettings settings;
  settings.port = a->port();
  Sandbox b(settings);
  std::string error;
  EXPECT_FALSE(b.Start(error));
  EXPECT_NE(error.find(std::to_string(a->port())), std::string::npos) << error;
}

TEST(SandboxServerTest, StopIsIdempotentAndClosesThePort) {
  auto sandbox = StartSandbox();
  aws::AwsClient client = ClientFor(*sandbox);
  sandbox->Stop();
  sandbox->Stop();
  auto r = client.Query("sts", GetCallerIdentity());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().source, aws::ErrorSource::Transport);
}

}  // namespace
}  // namespace strata::sandbox
