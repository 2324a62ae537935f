// Request building and response parsing of the query and JSON protocols, URL helpers.

#include <gtest/gtest.h>

#include "providers/aws/client/paginator.h"
#include "providers/aws/protocol/json_protocol.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {
namespace {

TEST(QueryProtocolTest, FormEncodesActionVersionAndParams) {
  QueryRequest call{"CreateRole", "2010-05-08", {}};
  call.Add("RoleName", "eks role").Add("AssumeRolePolicyDocument", R"({"a":"b/c+d"})");
  call.AddList("Tags.member", {"x", "y"});
  EXPECT_EQ(call.EncodeBody(),
            "Action=CreateRole&Version=2010-05-08&RoleName=eks%20role&AssumeRolePolicyDocument="
            "%7B%22a%22%3A%22b%2Fc%2Bd%22%7D&Tags.member.1=x&Tags.member.2=y");
  HttpRequest http = BuildQueryHttpRequest(call, "https://iam.amazonaws.com");
  EXPECT_EQ(http.method, "POST");
  EXPECT_EQ(http.url, "https://iam.amazonaws.com/");
  EXPECT_EQ(FindHeader(http.headers, "content-type").value_or(""),
            "application/x-www-form-urlencoded; charset=utf-8");
}

TEST(QueryProtocolTest, ParsesResultNodeAndRequestId) {
  HttpResponse r{200, {}, R"(<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/Alice</Arn>
  <UserId>AIDA</UserId><Account>123456789012</Account></GetCallerIdentityResult>
  <ResponseMetadata><RequestId>01234567-89ab</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>)"};
  auto x = ParseXmlResponse(r, "GetCallerIdentity");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(XmlText(x->result, "Account"), "123456789012");
  EXPECT_EQ(x->request_id, "01234567-89ab");
}

TEST(QueryProtocolTest, Ec2ResponseHasNoResultWrapper) {
  HttpResponse r{200, {}, R"(<DescribeVpcsResponse><requestId>ec2-req</requestId>
  <vpcSet><item><vpcId>vpc-1</vpcId></item></vpcSet></DescribeVpcsResponse>)"};
  auto x = ParseXmlResponse(r, "DescribeVpcs");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(XmlText(x->result, "vpcSet/item/vpcId"), "vpc-1");
  EXPECT_EQ(x->request_id, "ec2-req");
}

TEST(QueryProtocolTest, MalformedXmlIsAnError) {
  auto x = ParseXmlResponse(HttpResponse{200, {}, "<a><b></a>"}, "A");
  ASSERT_FALSE(x.ok());
  EXPECT_EQ(x.error().code, "MalformedResponse");
}

TEST(JsonProtocolTest, JsonRpcRequest) {
  JsonRpcRequest call{"AWSCognitoIdentityProviderService", "DescribeUserPool", {{"UserPoolId", "p1"}}};
  HttpRequest http = BuildJsonRpcHttpRequest(call, "https://cognito-idp.us-east-1.amazonaws.com");
  EXPECT_EQ(http.url, "https://cognito-idp.us-east-1.amazonaws.com/");
  EXPECT_EQ(FindHeader(http.headers, "X-Amz-Target").value_or(""),
            "AWSCognitoIdentityProviderService.DescribeUserPool");
  EXPECT_EQ(FindHeader(http.headers, "Content-Type").value_or(""), "application/x-amz-json-1.1");
  EXPECT_EQ(http.body, R"({"UserPoolId":"p1"})");
}

TEST(JsonProtocolTest, RestJsonRequest) {
  RestJsonRequest call;
  call.method = "POST";
  call.path = "/clusters/" + EncodePathLabel("my cluster/x") + "/node-groups";
  call.query = {{"maxResults", "10"}};
  call.body = nlohmann::json{{"nodegroupName", "ng"}};
  HttpRequest http = BuildRestJsonHttpRequest(call, "http://127.0.0.1:5000/");
  EXPECT_EQ(http.url, "http://127.0.0.1:5000/clusters/my%20cluster%2Fx/node-groups?maxResults=10");
  EXPECT_EQ(FindHeader(http.headers, "Content-Type").value_or(""), "application/json");
  EXPECT_EQ(http.body, R"({"nodegroupName":"ng"})");
}

TEST(JsonProtocolTest, ParsesEmptyAndRejectsGarbage) {
  auto empty = ParseJsonResponse(HttpResponse{200, {}, ""});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->is_object());
  auto bad = ParseJsonResponse(HttpResponse{200, {}, "{oops"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "MalformedResponse");
}

TEST(UrlTest, ParseAndEncode) {
  Url u;
  ASSERT_TRUE(ParseUrl("http://127.0.0.1:8080/a/b?x=1&y", &u));
  EXPECT_EQ(u.scheme, "http");
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 8080);
  EXPECT_EQ(u.path, "/a/b");
  EXPECT_EQ(u.query, "x=1&y");
  EXPECT_EQ(u.HostHeader(), "127.0.0.1:8080");
  ASSERT_TRUE(ParseUrl("https://sts.amazonaws.com:443", &u));
  EXPECT_EQ(u.HostHeader(), "sts.amazonaws.com");
  EXPECT_EQ(u.path, "/");
  EXPECT_FALSE(ParseUrl("/relative", &u));
  EXPECT_EQ(UriEncode("a b+c/d~"), "a%20b%2Bc%2Fd~");
  EXPECT_EQ(UriEncode("a/b", true), "a/b");
  EXPECT_EQ(UriDecode("a%20b%2"), "a b%2");
  auto q = ParseQuery("a=1&b&c=%2F");
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[1], (std::pair<std::string, std::string>("b", "")));
  EXPECT_EQ(q[2].second, "/");
}

TEST(PaginatorTest, CollectsJsonPagesUntilNoToken) {
  std::vector<std::string> tokens_seen;
  std::function<Result<nlohmann::json>(const std::string&)> fetch =
      [&](const std::string& token) -> Result<nlohmann::json> {
    tokens_seen.push_back(token);
    if (token.empty()) return nlohmann::json{{"clusters", {"a"}}, {"nextToken", "t1"}};
    if (token == "t1") return nlohmann::json{{"clusters", {"b"}}, {"nextToken", "t2"}};
    return nlohmann::json{{"clusters", {"c"}}};
  };
  auto pages = CollectPages(fetch, JsonNextToken("nextToken"));
  ASSERT_TRUE(pages.ok());
  ASSERT_EQ(pages->size(), 3u);
  EXPECT_EQ((*pages)[2]["clusters"][0], "c");
  EXPECT_EQ(tokens_seen, (std::vector<std::string>{"", "t1", "t2"}));
}

TEST(PaginatorTest, StopsOnRepeatedTokenAndPropagatesErrors) {
  std::function<Result<nlohmann::json>(const std::string&)> loop =
      [](const std::string&) -> Result<nlohmann::json> { return nlohmann::json{{"NextToken", "same"}}; };
  auto pages = CollectPages(loop, JsonNextToken("NextToken"));
  ASSERT_FALSE(pages.ok());
  EXPECT_NE(pages.error().message.find("repeated"), std::string::npos);

  std::function<Result<nlohmann::json>(const std::string&)> failing =
      [](const std::string& t) -> Result<nlohmann::json> {
    if (t.empty()) return nlohmann::json{{"NextToken", "x"}};
    return AwsError{"AccessDenied", "no", "", 403, false, ErrorSource::Service};
  };
  auto failed = CollectPages(failing, JsonNextToken("NextToken"));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, "AccessDenied");
}

TEST(PaginatorTest, XmlMarkerHonoursIsTruncated) {
  auto page = [](const std::string& body) {
    return ParseXmlResponse(HttpResponse{200, {}, body}, "ListRoles").value();
  };
  auto next = XmlNextToken("Marker");
  EXPECT_EQ(next(page("<ListRolesResponse><ListRolesResult><IsTruncated>true</IsTruncated>"
                      "<Marker>m1</Marker></ListRolesResult></ListRolesResponse>")),
            "m1");
  EXPECT_EQ(next(page("<ListRolesResponse><ListRolesResult><IsTruncated>false</IsTruncated>"
                      "<Marker>m1</Marker></ListRolesResult></ListRolesResponse>")),
            "");
}

}  // namespace
}  // namespace strata::aws
