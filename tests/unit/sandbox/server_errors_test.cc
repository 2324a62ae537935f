// The sandbox's error shapes, read back by the provider's error parser: what a client
// sees is what it would see from AWS, whatever characters the message holds.

#include <gtest/gtest.h>

#include "providers/aws/protocol/error_parser.h"
#include "sandbox/error_render.h"

namespace strata::sandbox {
namespace {

const ErrorInfo kTricky{400, "InvalidParameterValue", R"(Value <a & "b"> at 'x' is wrong — é)"};

aws::AwsError Parse(const Response& response) {
  aws::HttpResponse http{response.status, {{"Content-Type", response.content_type}}, response.body};
  for (const auto& [name, value] : response.headers) http.headers.emplace_back(name, value);
  return aws::ParseErrorResponse(http);
}

TEST(SandboxErrorRenderTest, Ec2Shape) {
  Response response = RenderEc2Error(kTricky, "req-1");
  EXPECT_EQ(response.body.rfind(R"(<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>)", 0), 0u)
      << response.body;
  aws::AwsError error = Parse(response);
  EXPECT_EQ(error.code, kTricky.code);
  EXPECT_EQ(error.message, kTricky.message);
  EXPECT_EQ(error.request_id, "req-1");
  EXPECT_EQ(error.http_status, 400);
}

TEST(SandboxErrorRenderTest, QueryShapeWithTheServiceNamespace) {
  Response response = RenderError(Protocol::Query, "sts", kTricky, "req-2");
  EXPECT_NE(response.body.find(R"(<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type>)"),
            std::string::npos)
      << response.body;
  aws::AwsError error = Parse(response);
  EXPECT_EQ(error.code, kTricky.code);
  EXPECT_EQ(error.message, kTricky.message);
  EXPECT_EQ(error.request_id, "req-2");
  EXPECT_EQ(response.headers.at("x-amzn-RequestId"), "req-2");

  Response server_side = RenderError(Protocol::Query, "iam", {500, "InternalError", "boom"}, "r");
  EXPECT_NE(server_side.body.find("<Type>Receiver</Type>"), std::string::npos);
  EXPECT_NE(server_side.body.find("https://iam.amazonaws.com/doc/2010-05-08/"), std::string::npos);
}

TEST(SandboxErrorRenderTest, RestJsonShape) {
  Response response = RenderError(Protocol::RestJson, "eks", {404, "ResourceNotFoundException", kTricky.message}, "req-3");
  EXPECT_EQ(response.content_type, "application/json");
  EXPECT_EQ(response.headers.at("x-amzn-ErrorType"), "ResourceNotFoundException");
  aws::AwsError error = Parse(response);
  EXPECT_EQ(error.code, "ResourceNotFoundException");
  EXPECT_EQ(error.message, kTricky.message);
  EXPECT_EQ(error.request_id, "req-3");
  EXPECT_EQ(error.http_status, 404);
}

TEST(SandboxErrorRenderTest, Route53AndS3Shapes) {
  Response route53 = RenderError(Protocol::RestXml, "route53", {400, "InvalidChangeBatch", kTricky.message}, "req-4");
  EXPECT_NE(route53.body.find(R"(<ErrorResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><Error><Type>Sender</Type>)"),
            std::string::npos)
      << route53.body;
  aws::AwsError error = Parse(route53);
  EXPECT_EQ(error.code, "InvalidChangeBatch");
  EXPECT_EQ(error.message, kTricky.message);
  EXPECT_EQ(error.request_id, "req-4");

  Response s3 = RenderError(Protocol::RestXml, "s3", {409, "BucketNotEmpty", kTricky.message}, "req-5", "DELETE");
  EXPECT_EQ(s3.body.rfind(R"(<?xml version="1.0" encoding="UTF-8"?><Error><Code>BucketNotEmpty</Code>)", 0), 0u) << s3.body;
  error = Parse(s3);
  EXPECT_EQ(error.code, "BucketNotEmpty");
  EXPECT_EQ(error.request_id, "req-5");
  EXPECT_EQ(error.http_status, 409);
  // A HEAD is answered with the status alone, as S3 does.
  Response head = RenderError(Protocol::RestXml, "s3", {404, "NoSuchBucket", "gone"}, "req-6", "HEAD");
  EXPECT_TRUE(head.body.empty());
  EXPECT_EQ(head.status, 404);
}

}  // namespace
}  // namespace strata::sandbox
