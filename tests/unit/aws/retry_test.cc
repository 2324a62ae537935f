// Retries through AwsClient + CurlTransport against a local server on 127.0.0.1 that
// fails N times and then succeeds. Sleeps go through FakeClock, so nothing waits.

#include <gtest/gtest.h>

#include <atomic>

#include "providers/aws/client/aws_client.h"
#include "providers/aws/http/curl_transport.h"
#include "providers/aws/sts/sts_operations.h"
#include "test_support.h"

namespace strata::aws {
namespace {

constexpr const char* kIdentityXml =
    "<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account>"
    "<Arn>arn:aws:iam::123456789012:user/test</Arn><UserId>AIDTEST</UserId>"
    "</GetCallerIdentityResult><ResponseMetadata><RequestId>rid</RequestId></ResponseMetadata>"
    "</GetCallerIdentityResponse>";

// Fails the first `failures` requests with (status, body), then answers kIdentityXml.
struct FlakyServer {
  testing::LocalServer local;
  std::atomic<int> requests{0};
  std::atomic<int> failures{0};
  int fail_status = 400;
  std::string fail_body;
  std::string last_authorization;
  std::mutex mu;

  void Start() {
    local.server().Post("/", [this](const httplib::Request& req, httplib::Response& res) {
      int n = ++requests;
      {
        std::lock_guard lock(mu);
        last_authorization = req.get_header_value("Authorization");
      }
      if (n <= failures) {
        res.status = fail_status;
        res.set_content(fail_body, "text/xml");
        return;
      }
      res.set_content(kIdentityXml, "text/xml");
    });
    local.Start();
  }
};

struct ClientFixture {
  std::shared_ptr<FakeClock> clock =
      std::make_shared<FakeClock>(TimePoint(std::chrono::seconds(1700000000)));
  std::shared_ptr<AwsClient> client;

  ClientFixture(const std::string& endpoint, RetryOptions retry, double random = 0.5) {
    AwsClientConfig config;
    config.region = "us-east-1";
    config.endpoints = {{"sts", endpoint}};
    config.retry = retry;
    config.http_timeout = Duration(5000);
    Credentials creds{"AKIDRETRYTEST", "secretsecretsecretsecret", "", std::nullopt, "test"};
    client = std::make_shared<AwsClient>(
        config, AwsClientDeps{std::make_shared<CurlTransport>(),
                              std::make_shared<StaticCredentialsProvider>(creds), clock,
                              std::make_shared<FixedRandom>(random)});
  }
};

std::string ThrottleXml(const std::string& code = "Throttling") {
  return "<ErrorResponse><Error><Type>Sender</Type><Code>" + code +
         "</Code><Message>Rate exceeded</Message></Error><RequestId>r</RequestId></ErrorResponse>";
}

TEST(RetryTest, ThrottledThreeTimesThenSucceeds) {
  FlakyServer server;
  server.failures = 3;
  server.fail_body = ThrottleXml();
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{5, Duration(100), Duration(20000)}, 0.5);
  auto identity = GetCallerIdentity(*f.client);
  ASSERT_TRUE(identity.ok()) << identity.error().ToString();
  EXPECT_EQ(identity->account, "123456789012");
  EXPECT_EQ(server.requests, 4);
  // Full jitter with random 0.5: 50 + 100 + 200 ms.
  EXPECT_EQ(f.clock->TotalSlept(), Duration(350));
  // Every attempt is signed for sts in us-east-1.
  EXPECT_EQ(server.last_authorization.rfind(
                "AWS4-HMAC-SHA256 Credential=AKIDRETRYTEST/20231114/us-east-1/sts/aws4_request, "
                "SignedHeaders=content-type;host;x-amz-date, Signature=",
                0),
            0u);
}

TEST(RetryTest, EveryThrottlingCodeOfEachProtocolIsRetried) {
  for (const char* code : {"Throttling", "ThrottlingException", "RequestLimitExceeded",
                           "TooManyRequestsException", "RequestThrottled", "SlowDown",
                           "PriorRequestNotComplete"}) {
    SCOPED_TRACE(code);
    FlakyServer server;
    server.failures = 1;
    server.fail_body = ThrottleXml(code);
    server.Start();
    ClientFixture f(server.local.url(), RetryOptions{2, Duration(10), Duration(100)});
    EXPECT_TRUE(GetCallerIdentity(*f.client).ok());
    EXPECT_EQ(server.requests, 2);
  }
}

TEST(RetryTest, RetryLimitBoundsAttempts) {
  FlakyServer server;
  server.failures = 100;
  server.fail_body = ThrottleXml();
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{3, Duration(100), Duration(20000)});
  auto identity = GetCallerIdentity(*f.client);
  ASSERT_FALSE(identity.ok());
  EXPECT_EQ(identity.error().code, "Throttling");
  EXPECT_EQ(identity.error().http_status, 400);
  EXPECT_NE(identity.error().message.find("gave up after 4 attempts"), std::string::npos);
  EXPECT_EQ(server.requests, 4);
}

TEST(RetryTest, DeadlineBoundsRetries) {
  FlakyServer server;
  server.failures = 100;
  server.fail_body = ThrottleXml();
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{50, Duration(200), Duration(20000)}, 0.999);
  CallOptions options;
  options.deadline = f.clock->Now() + Duration(1000);
  auto response = f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}}, options);
  ASSERT_FALSE(response.ok());
  // Sleeps of ~200 and ~400 ms fit in 1 s; the next (~800 ms) would pass the deadline.
  EXPECT_EQ(server.requests, 3);
  EXPECT_LT(f.clock->TotalSlept(), Duration(1000));
  EXPECT_NE(response.error().message.find("deadline"), std::string::npos);
}

TEST(RetryTest, PassedDeadlineStopsBeforeSending) {
  FlakyServer server;
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{});
  CallOptions options;
  options.deadline = f.clock->Now() - Duration(1);
  auto response = f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}}, options);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, "DeadlineExceeded");
  EXPECT_EQ(server.requests, 0);
}

TEST(RetryTest, ServerErrorsAreRetried) {
  FlakyServer server;
  server.failures = 2;
  server.fail_status = 503;
  server.fail_body = "";
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{3, Duration(10), Duration(100)});
  EXPECT_TRUE(GetCallerIdentity(*f.client).ok());
  EXPECT_EQ(server.requests, 3);
}

// A create without a client token must not be sent twice: a 5xx may mean the object was made.
TEST(RetryTest, CallThatIsNotIdempotentIsNotSentAgainAfterAnUnknownOutcome) {
  FlakyServer server;
  server.failures = 100;
  server.fail_status = 500;
  server.fail_body = ThrottleXml("InternalError");
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{3, Duration(10), Duration(100)});
  CallOptions once;
  once.retry_unknown_outcome = false;
  auto r = f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}}, once);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(server.requests, 1);
  EXPECT_TRUE(r.error().outcome_unknown);
  EXPECT_NE(r.error().message.find("not sent again"), std::string::npos) << r.error().message;
}

TEST(RetryTest, ThrottlingIsRetriedEvenWhenTheCallIsNotIdempotent) {
  FlakyServer server;
  server.failures = 2;
  server.fail_body = ThrottleXml();
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{3, Duration(10), Duration(100)});
  CallOptions once;
  once.retry_unknown_outcome = false;
  EXPECT_TRUE(f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}}, once).ok());
  EXPECT_EQ(server.requests, 3) << "a throttled call was refused, so sending it again is safe";
}

TEST(RetryTest, AnUnknownOutcomeIsRememberedAcrossRetries) {
  FlakyServer server;
  server.failures = 1;
  server.fail_status = 503;
  server.fail_body = "";
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{3, Duration(10), Duration(100)});
  // The 503 is retried; the second answer refuses the call for good. The first may still
  // have taken effect, and the error says so.
  std::atomic<int> calls{0};
  std::function<Result<int>(int)> attempt = [&](int n) -> Result<int> {
    ++calls;
    AwsError e;
    e.code = n == 1 ? "InternalError" : "AccessDenied";
    e.http_status = n == 1 ? 500 : 403;
    e.retryable = n == 1;
    e.outcome_unknown = n == 1;
    return e;
  };
  auto r = RunWithRetries(attempt, RetryOptions{3, Duration(10), Duration(100)}, CallOptions{}, *f.clock,
                          *std::make_shared<FixedRandom>(0.5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(r.error().code, "AccessDenied");
  EXPECT_TRUE(r.error().outcome_unknown);
}

TEST(RetryTest, NonRetryableErrorFailsAtOnce) {
  FlakyServer server;
  server.failures = 100;
  server.fail_status = 403;
  server.fail_body = ThrottleXml("AccessDenied");
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{5, Duration(10), Duration(100)});
  auto identity = GetCallerIdentity(*f.client);
  ASSERT_FALSE(identity.ok());
  EXPECT_EQ(identity.error().code, "AccessDenied");
  EXPECT_FALSE(identity.error().retryable);
  EXPECT_EQ(server.requests, 1);
  EXPECT_EQ(f.clock->TotalSlept(), Duration(0));
}

TEST(RetryTest, ExtraRetryConditionForEventualConsistency) {
  const std::string body =
      "<ErrorResponse><Error><Code>InvalidParameterException</Code><Message>Role with arn: "
      "arn:aws:iam::1:role/eks, could not be assumed because the role cannot be assumed"
      "</Message></Error></ErrorResponse>";
  {
    FlakyServer server;
    server.failures = 2;
    server.fail_body = body;
    server.Start();
    ClientFixture f(server.local.url(), RetryOptions{5, Duration(10), Duration(100)});
    auto r = f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(server.requests, 1);  // not retried by default
  }
  FlakyServer server;
  server.failures = 2;
  server.fail_body = body;
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{5, Duration(10), Duration(100)});
  CallOptions options;
  options.retry_also.push_back(RetryOnError("InvalidParameterException", "role cannot be assumed"));
  auto r = f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(server.requests, 3);
}

TEST(RetryTest, ConnectionErrorsAreRetried) {
  std::string dead_url;
  {
    testing::LocalServer closed;
    closed.Start();
    dead_url = closed.url();
  }  // the port is closed now
  ClientFixture f(dead_url, RetryOptions{2, Duration(10), Duration(100)});
  int attempts = 0;
  std::function<Result<HttpResponse>(int)> attempt = [&](int) -> Result<HttpResponse> {
    ++attempts;
    return f.client->Send("sts", HttpRequest{"GET", "/", {}, "", {}, {}},
                          CallOptions{std::nullopt, {}, 0, nullptr, false});
  };
  auto r = RunWithRetries(attempt, RetryOptions{2, Duration(10), Duration(100)}, CallOptions{},
                          *f.clock, *std::make_shared<FixedRandom>(0.5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "ConnectionError");
  EXPECT_EQ(attempts, 3);
}

TEST(RetryTest, CancellationStopsTheLoop) {
  FlakyServer server;
  server.failures = 100;
  server.fail_body = ThrottleXml();
  server.Start();
  ClientFixture f(server.local.url(), RetryOptions{10, Duration(10), Duration(100)});
  CallOptions options;
  options.cancelled = [&] { return server.requests >= 2; };
  auto r = f.client->Query("sts", QueryRequest{"GetCallerIdentity", "2011-06-15", {}}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(server.requests, 2);
}

TEST(BackoffTest, FullJitterIsCappedExponential) {
  RetryOptions options{10, Duration(100), Duration(1000)};
  FixedRandom almost_one(0.999999);
  EXPECT_EQ(BackoffDelay(0, options, almost_one), Duration(99));
  EXPECT_EQ(BackoffDelay(2, options, almost_one), Duration(399));
  EXPECT_EQ(BackoffDelay(8, options, almost_one), Duration(999));  // capped
  FixedRandom zero(0.0);
  EXPECT_EQ(BackoffDelay(5, options, zero), Duration(0));
}

}  // namespace
}  // namespace strata::aws
