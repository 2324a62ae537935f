// Request building and response parsing of the REST-XML protocol (Route 53, S3): bucket
// addressing, paths, subresource queries and bodies.

#include <gtest/gtest.h>

#include "providers/aws/protocol/rest_xml_protocol.h"

namespace strata::aws {
namespace {

TEST(RestXmlProtocolTest, BucketsArePathStyleWhenForcedOverriddenOrDotted) {
  EXPECT_EQ(ChooseBucketAddressing("logs", false, false), BucketAddressing::VirtualHosted);
  EXPECT_EQ(ChooseBucketAddressing("logs", true, false), BucketAddressing::PathStyle);
  EXPECT_EQ(ChooseBucketAddressing("logs", false, true), BucketAddressing::PathStyle);
  EXPECT_EQ(ChooseBucketAddressing("logs.example.com", false, false), BucketAddressing::PathStyle);
}

TEST(RestXmlProtocolTest, BuildsPathStyleAndVirtualHostedUrls) {
  RestXmlRequest call;
  call.method = "PUT";
  call.bucket = "logs";
  call.path = "/dir/a%20b.txt";
  call.query = {{"versionId", "v1"}};
  EXPECT_EQ(BuildRestXmlHttpRequest(call, "http://127.0.0.1:9000/", BucketAddressing::PathStyle).url,
            "http://127.0.0.1:9000/logs/dir/a%20b.txt?versionId=v1");
  EXPECT_EQ(BuildRestXmlHttpRequest(call, "https://s3.us-west-2.amazonaws.com", BucketAddressing::VirtualHosted).url,
            "https://logs.s3.us-west-2.amazonaws.com/dir/a%20b.txt?versionId=v1");
  call.path = "/";
  call.query = {{"tagging", ""}};
  EXPECT_EQ(BuildRestXmlHttpRequest(call, "http://127.0.0.1:9000", BucketAddressing::PathStyle).url,
            "http://127.0.0.1:9000/logs?tagging=");
}

TEST(RestXmlProtocolTest, BodyCarriesItsContentTypeAndNamespace) {
  pugi::xml_document body = NewXmlBody("CreateHostedZoneRequest", "https://route53.amazonaws.com/doc/2013-04-01/");
  body.document_element().append_child("Name").text() = "example.com";
  RestXmlRequest call;
  call.method = "POST";
  call.path = "/2013-04-01/hostedzone";
  call.body = XmlBodyText(body);
  HttpRequest http = BuildRestXmlHttpRequest(call, "https://route53.amazonaws.com");
  EXPECT_EQ(http.url, "https://route53.amazonaws.com/2013-04-01/hostedzone");
  EXPECT_EQ(FindHeader(http.headers, "Content-Type").value_or(""), "application/xml");
  EXPECT_EQ(http.body,
            R"(<?xml version="1.0" encoding="UTF-8"?><CreateHostedZoneRequest xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><Name>example.com</Name></CreateHostedZoneRequest>)");
}

TEST(RestXmlProtocolTest, TheResultIsTheRootElement) {
  HttpResponse response{200, {{"x-amzn-RequestId", "r-1"}}, R"(<GetChangeResponse xmlns="x"><ChangeInfo><Status>INSYNC</Status></ChangeInfo></GetChangeResponse>)"};
  Result<XmlResponse> parsed = ParseRestXmlResponse(response);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(XmlText(parsed->result, "ChangeInfo/Status"), "INSYNC");
  EXPECT_EQ(parsed->request_id, "r-1");
  HttpResponse empty{200, {}, ""};
  Result<XmlResponse> none = ParseRestXmlResponse(empty);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->result);
}

}  // namespace
}  // namespace strata::aws
