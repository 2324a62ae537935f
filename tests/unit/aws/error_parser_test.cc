// AWS error shapes of every protocol map onto one AwsError.

#include <gtest/gtest.h>

#include "providers/aws/protocol/error_parser.h"

namespace strata::aws {
namespace {

HttpResponse Response(int status, std::string body, HttpHeaders headers = {}) {
  return HttpResponse{status, std::move(headers), std::move(body)};
}

TEST(ErrorParserTest, QueryProtocolXml) {
  auto e = ParseErrorResponse(Response(
      403,
      "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
      "  <Error><Type>Sender</Type><Code>AccessDenied</Code>"
      "<Message>User is not authorized to perform: sts:AssumeRole</Message></Error>\n"
      "  <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>\n</ErrorResponse>"));
  EXPECT_EQ(e.code, "AccessDenied");
  EXPECT_EQ(e.message, "User is not authorized to perform: sts:AssumeRole");
  EXPECT_EQ(e.request_id, "c6104cbe-af31-11e0-8154-cbc7ccf896c7");
  EXPECT_EQ(e.http_status, 403);
  EXPECT_FALSE(e.retryable);
  EXPECT_EQ(e.source, ErrorSource::Service);
}

TEST(ErrorParserTest, QueryThrottlingIsRetryable) {
  auto e = ParseErrorResponse(Response(
      400, "<ErrorResponse><Error><Code>Throttling</Code><Message>Rate exceeded</Message></Error>"
           "<RequestId>r1</RequestId></ErrorResponse>"));
  EXPECT_EQ(e.code, "Throttling");
  EXPECT_TRUE(e.retryable);
}

TEST(ErrorParserTest, Ec2Xml) {
  auto e = ParseErrorResponse(Response(
      400,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error>"
      "<Code>InvalidVpcID.NotFound</Code><Message>The vpc ID 'vpc-1' does not exist</Message>"
      "</Error></Errors><RequestID>ea966190-f9aa-478e-9ede-example</RequestID></Response>"));
  EXPECT_EQ(e.code, "InvalidVpcID.NotFound");
  EXPECT_EQ(e.message, "The vpc ID 'vpc-1' does not exist");
  EXPECT_EQ(e.request_id, "ea966190-f9aa-478e-9ede-example");
  EXPECT_FALSE(e.retryable);
}

TEST(ErrorParserTest, Ec2RequestLimitExceededIsRetryable) {
  auto e = ParseErrorResponse(Response(
      503, "<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit "
           "exceeded.</Message></Error></Errors><RequestID>x</RequestID></Response>"));
  EXPECT_EQ(e.code, "RequestLimitExceeded");
  EXPECT_TRUE(e.retryable);
}

TEST(ErrorParserTest, RestXmlS3Style) {
  auto e = ParseErrorResponse(
      Response(503, "<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message>"
                    "<RequestId>4442587FB7D0A2F9</RequestId></Error>"));
  EXPECT_EQ(e.code, "SlowDown");
  EXPECT_EQ(e.request_id, "4442587FB7D0A2F9");
  EXPECT_TRUE(e.retryable);
}

TEST(ErrorParserTest, JsonTypeWithNamespace) {
  auto e = ParseErrorResponse(Response(
      400,
      R"({"__type":"com.amazonaws.cognito.identity.idp.model#ResourceNotFoundException","message":"User pool does not exist."})",
      {{"x-amzn-RequestId", "b25f48e8-84fd-11e6-80d9-example"}}));
  EXPECT_EQ(e.code, "ResourceNotFoundException");
  EXPECT_EQ(e.message, "User pool does not exist.");
  EXPECT_EQ(e.request_id, "b25f48e8-84fd-11e6-80d9-example");
  EXPECT_FALSE(e.retryable);
}

TEST(ErrorParserTest, JsonCodeFieldAndCapitalMessage) {
  auto e = ParseErrorResponse(
      Response(400, R"({"code":"ThrottlingException","Message":"Rate exceeded"})"));
  EXPECT_EQ(e.code, "ThrottlingException");
  EXPECT_EQ(e.message, "Rate exceeded");
  EXPECT_TRUE(e.retryable);
}

TEST(ErrorParserTest, RestJsonErrorTypeHeaderWins) {
  auto e = ParseErrorResponse(Response(
      404, R"({"message":"No cluster found for name: demo.","clusterName":"demo"})",
      {{"X-Amzn-ErrorType", "ResourceNotFoundException:http://internal.amazon.com/coral/"},
       {"X-Amzn-RequestId", "abc"}}));
  EXPECT_EQ(e.code, "ResourceNotFoundException");
  EXPECT_EQ(e.message, "No cluster found for name: demo.");
  EXPECT_EQ(e.request_id, "abc");
  EXPECT_EQ(e.http_status, 404);
}

TEST(ErrorParserTest, EmptyOrGarbageBodyFallsBackToStatus) {
  auto e = ParseErrorResponse(Response(503, ""));
  EXPECT_EQ(e.code, "ServiceUnavailable");
  EXPECT_TRUE(e.retryable);
  auto g = ParseErrorResponse(Response(502, "<html>Bad gateway</html>"));
  EXPECT_EQ(g.code, "BadGateway");
  EXPECT_TRUE(g.retryable);
  auto n = ParseErrorResponse(Response(501, "{}"));
  EXPECT_FALSE(n.retryable);
  auto t = ParseErrorResponse(Response(429, "not json"));
  EXPECT_TRUE(t.retryable);
}

TEST(ErrorParserTest, SanitizeErrorCode) {
  EXPECT_EQ(SanitizeErrorCode("aws.protocoltests#FooError:http://x"), "FooError");
  EXPECT_EQ(SanitizeErrorCode("FooError"), "FooError");
}

TEST(ErrorParserTest, TransportErrors) {
  auto c = ErrorFromTransport({TransportError::Kind::Connect, "refused"});
  EXPECT_EQ(c.code, "ConnectionError");
  EXPECT_TRUE(c.retryable);
  EXPECT_EQ(c.source, ErrorSource::Transport);
  EXPECT_TRUE(ErrorFromTransport({TransportError::Kind::Timeout, "t"}).retryable);
  EXPECT_FALSE(ErrorFromTransport({TransportError::Kind::Tls, "cert"}).retryable);
}

TEST(ErrorParserTest, WhatMayHaveTakenEffectIsMarked) {
  EXPECT_FALSE(ErrorFromTransport({TransportError::Kind::Connect, "refused"}).outcome_unknown)
      << "a refused connection sent nothing";
  EXPECT_TRUE(ErrorFromTransport({TransportError::Kind::Lost, "reset"}).outcome_unknown);
  EXPECT_TRUE(ErrorFromTransport({TransportError::Kind::Timeout, "t"}).outcome_unknown);
  EXPECT_TRUE(ParseErrorResponse(Response(500, "")).outcome_unknown);
  EXPECT_FALSE(ParseErrorResponse(Response(400, "")).outcome_unknown);
  EXPECT_FALSE(ParseErrorResponse(Response(503, "<Response><Errors><Error><Code>RequestLimitExceeded</Code>"
                                                "<Message>slow down</Message></Error></Errors></Response>"))
                   .outcome_unknown)
      << "EC2 throttles with a 503: the call was refused, not lost";
}

TEST(AwsErrorTest, ToStringCarriesCodeStatusAndRequestId) {
  AwsError e{"ThrottlingException", "Rate exceeded", "req-1", 400, true, ErrorSource::Service};
  EXPECT_EQ(e.ToString(), "ThrottlingException: Rate exceeded (HTTP 400, request id req-1)");
}

}  // namespace
}  // namespace strata::aws
