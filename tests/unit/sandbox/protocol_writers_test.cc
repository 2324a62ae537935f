// The sandbox's response writers and error shapes (sandbox/protocol/), pinned byte for
// byte: clients (ours, botocore, the AWS CLI) read exactly these documents.

#include <gtest/gtest.h>

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/error_shapes.h"
#include "sandbox/protocol/json_body.h"
#include "sandbox/protocol/json_response.h"
#include "sandbox/protocol/query_dispatch.h"
#include "sandbox/protocol/query_response.h"
#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox {
namespace {

using Values = std::map<std::string, std::string>;

TEST(QueryResponseWriterTest, WritesTheIndentedEnvelopeWithResult) {
  QueryResponseWriter answer("GetRole", "https://iam.amazonaws.com/doc/2010-05-08/", true);
  pugi::xml_node role = AddChild(answer.result(), "Role");
  AddText(role, "RoleName", "a<b");
  AddStringList(role, "List", {"x", "y"});
  Response response = answer.Finish("req-1");
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "text/xml");
  EXPECT_EQ(response.body,
            "<?xml version=\"1.0\"?>\n"
            "<GetRoleResponse xmlns=\"https://iam.amazonaws.com/doc/2010-05-08/\">\n"
            "  <GetRoleResult>\n"
            "    <Role>\n"
            "      <RoleName>a&lt;b</RoleName>\n"
            "      <List>\n"
            "        <member>x</member>\n"
            "        <member>y</member>\n"
            "      </List>\n"
            "    </Role>\n"
            "  </GetRoleResult>\n"
            "  <ResponseMetadata>\n"
            "    <RequestId>req-1</RequestId>\n"
            "  </ResponseMetadata>\n"
            "</GetRoleResponse>\n");
}

TEST(QueryResponseWriterTest, AnActionWithoutOutputShapeSendsNoResult) {
  QueryResponseWriter answer("DeleteRole", "ns", false);
  AddText(answer.result(), "Ignored", "x");
  EXPECT_EQ(answer.Finish("r").body,
            "<?xml version=\"1.0\"?>\n<DeleteRoleResponse xmlns=\"ns\">\n  <ResponseMetadata>\n"
            "    <RequestId>r</RequestId>\n  </ResponseMetadata>\n</DeleteRoleResponse>\n");
}

struct FakeCall {
  pugi::xml_node result;
};

TEST(AnswerQueryCallTest, DispatchesToTheHandlerInsideTheEnvelope) {
  QueryActionTable<FakeCall> table;
  table["Hello"] = +[](FakeCall& call) { AddBool(call.result, "Greeted", true); };
  table["Bye"] = {[](FakeCall&) {}, false};
  QueryApi api{"2011-06-15", "ns"};
  auto make = [](pugi::xml_node result) { return FakeCall{result}; };
  Response hello =
      AnswerQueryCall(api, table, AwsQueryParams(Values{{"Action", "Hello"}}), "r", make);
  EXPECT_NE(hello.body.find("<HelloResult>\n    <Greeted>true</Greeted>\n  </HelloResult>"),
            std::string::npos)
      << hello.body;
  Response bye = AnswerQueryCall(api, table, AwsQueryParams(Values{{"Action", "Bye"}}), "r", make);
  EXPECT_EQ(bye.body.find("Result"), std::string::npos) << bye.body;
  EXPECT_THROW(AnswerQueryCall(api, table, AwsQueryParams(Values{{"Action", "Other"}}), "r", make),
               ApiError);
}

TEST(Ec2ResponseWriterTest, WritesTheFlatEnvelopeOnOneLine) {
  Ec2ResponseWriter answer("DescribeVpcs", "http://ec2.amazonaws.com/doc/2016-11-15/", "req-2");
  pugi::xml_node item = AddItem(AddChild(answer.root(), "vpcSet"));
  AddText(item, "vpcId", "vpc-1");
  AddBool(item, "isDefault", false);
  AddReturnTrue(answer.root());
  Response response = answer.Finish();
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(
      response.body,
      R"(<?xml version="1.0" encoding="UTF-8"?><DescribeVpcsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">)"
      R"(<requestId>req-2</requestId><vpcSet><item><vpcId>vpc-1</vpcId><isDefault>false</isDefault></item></vpcSet>)"
      R"(<return>true</return></DescribeVpcsResponse>)");
}

TEST(ErrorShapesTest, Ec2) {
  Response response = RenderEc2Error({400, "InvalidVpcID.NotFound", "no <vpc>"}, "req-3");
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(response.content_type, "text/xml");
  EXPECT_EQ(response.headers.at("x-amzn-RequestId"), "req-3");
  EXPECT_EQ(
      response.body,
      R"(<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>InvalidVpcID.NotFound</Code>)"
      R"(<Message>no &lt;vpc&gt;</Message></Error></Errors><RequestID>req-3</RequestID></Response>)");
}

TEST(ErrorShapesTest, QuerySenderAndReceiver) {
  Response sender = RenderQueryError({404, "NoSuchEntity", "gone"}, "ns", "req-4");
  EXPECT_EQ(sender.status, 404);
  EXPECT_EQ(
      sender.body,
      R"(<?xml version="1.0" encoding="UTF-8"?><ErrorResponse xmlns="ns"><Error><Type>Sender</Type>)"
      R"(<Code>NoSuchEntity</Code><Message>gone</Message></Error><RequestId>req-4</RequestId></ErrorResponse>)");
  Response receiver = RenderQueryError({500, "InternalError", "boom"}, "ns", "r");
  EXPECT_NE(receiver.body.find("<Type>Receiver</Type>"), std::string::npos);
}

TEST(ErrorShapesTest, RestJson) {
  Response response = RenderRestJsonError({409, "ResourceInUseException", "busy \"x\""}, "req-5");
  EXPECT_EQ(response.status, 409);
  EXPECT_EQ(response.content_type, "application/json");
  EXPECT_EQ(response.body, R"({"message":"busy \"x\""})");
  EXPECT_EQ(response.headers.at("x-amzn-ErrorType"), "ResourceInUseException");
  EXPECT_EQ(response.headers.at("x-amzn-RequestId"), "req-5");
}

TEST(ErrorShapesTest, AwsJson) {
  Response response = RenderAwsJsonError({400, "QueueDoesNotExist", "The specified queue does not exist."}, "1.0", "req-7");
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(response.content_type, "application/x-amz-json-1.0");
  EXPECT_EQ(response.body, R"({"__type":"QueueDoesNotExist","message":"The specified queue does not exist."})");
  EXPECT_EQ(response.headers.at("x-amzn-RequestId"), "req-7");
  EXPECT_EQ(AwsJsonResponse(Json::object(), "1.1", "r").content_type, "application/x-amz-json-1.1");
}

TEST(JsonResponseTest, CompactBodyAndTheRequestIdWhenThereIsOne) {
  Response response = JsonResponse(Json{{"cluster", {{"name", "demo"}}}}, "req-6", 201);
  EXPECT_EQ(response.status, 201);
  EXPECT_EQ(response.content_type, "application/json");
  EXPECT_EQ(response.body, R"({"cluster":{"name":"demo"}})");
  EXPECT_EQ(response.headers.at("x-amzn-RequestId"), "req-6");
  EXPECT_EQ(JsonResponse(Json::object(), "").headers.count("x-amzn-RequestId"), 0u);
}

TEST(JsonBodyTest, EmptyIsAnObjectAndNonJsonIsRefused) {
  EXPECT_EQ(ParseJsonBody(""), Json::object());
  EXPECT_EQ(ParseJsonBody("[1]"), Json::array({1}));
  EXPECT_THROW(ParseJsonBody("{oops"), ApiError);
  EXPECT_THROW(ParseJsonObjectBody("[1]"), ApiError);
  EXPECT_EQ(ParseJsonObjectBody(R"({"a":1})"), (Json{{"a", 1}}));
}

}  // namespace
}  // namespace strata::sandbox
