// The sandbox's query-protocol parameters (sandbox/protocol/): form decoding, the list and
// structure shapes, and the typed reads that refuse in IAM/STS's and EC2's words.

#include <gtest/gtest.h>

#include "sandbox/protocol/aws_query_params.h"
#include "sandbox/protocol/ec2_query_params.h"
#include "sandbox/protocol/query_dispatch.h"
#include "sandbox/protocol/query_params.h"

namespace strata::sandbox {
namespace {

using Values = std::map<std::string, std::string>;

//! The ApiError `read` throws, as "<status> <code>: <message>".
template <typename Read>
std::string Refusal(Read read) {
  try {
    read();
  } catch (const ApiError& e) {
    return std::to_string(e.status) + " " + e.code + ": " + e.what();
  }
  return "no refusal";
}

TEST(QueryParamsTest, DecodesAFormWithPlusAndPercentEscapes) {
  Values out;
  DecodeForm("Action=CreateRole&RoleName=a+b%2Fc&&Empty=&Bare&Policy=%7B%22a%22%3A1%7D", out);
  EXPECT_EQ(out, (Values{{"Action", "CreateRole"},
                         {"RoleName", "a b/c"},
                         {"Empty", ""},
                         {"Bare", ""},
                         {"Policy", R"({"a":1})"}}));
}

TEST(QueryParamsTest, ThePostBodyWinsOverTheQueryString) {
  std::multimap<std::string, std::string> query{{"Action", "FromQuery"}, {"Version", "1"}};
  EXPECT_EQ(QueryProtocolParams("POST", query, "Action=FromBody"),
            (Values{{"Action", "FromBody"}, {"Version", "1"}}));
  EXPECT_EQ(QueryProtocolParams("GET", query, "Action=FromBody"),
            (Values{{"Action", "FromQuery"}, {"Version", "1"}}));
}

TEST(QueryParamsTest, MemberListsFollowTheIndexNotTheText) {
  QueryParams params(Values{{"L.member.10", "ten"},
                            {"L.member.9", "nine"},
                            {"L.member.1", "one"},
                            {"L.member.2.Key", "not a scalar"},
                            {"L.member.x", "not a number"}});
  EXPECT_EQ(params.MemberList("L"), (std::vector<std::string>{"one", "nine", "ten"}));
  EXPECT_TRUE(params.MemberList("Other").empty());
}

TEST(QueryParamsTest, MemberStructsGroupFieldsByIndex) {
  QueryParams params(Values{{"Tags.member.2.Key", "b"},
                            {"Tags.member.1.Key", "a"},
                            {"Tags.member.1.Value", "1"},
                            {"Tags.member.3", "no field"}});
  auto structs = params.MemberStructs("Tags");
  ASSERT_EQ(structs.size(), 2u);
  EXPECT_EQ(structs[1], (Values{{"Key", "a"}, {"Value", "1"}}));
  EXPECT_EQ(structs[2], (Values{{"Key", "b"}}));
}

TEST(QueryParamsTest, Ec2NumberedListsAndMembers) {
  QueryParams params(Values{{"ZoneName.2", "b"},
                            {"ZoneName.10", "c"},
                            {"ZoneName.1", "a"},
                            {"Filter.1.Name", "vpc-id"},
                            {"Filter.1.Value.1", "vpc-1"},
                            {"Filter.3.Name", "state"},
                            {"Filter.1234567.Name", "too long"},
                            {"Filter.2x.Name", "not an index"}});
  EXPECT_EQ(params.NumberedList("ZoneName"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(params.NumberedMembers("Filter"), (std::vector<std::string>{"Filter.1", "Filter.3"}));
  EXPECT_TRUE(params.NumberedList("Filter").empty());  // structures, not scalars
}

TEST(AwsQueryParamsTest, RefusesAsIamDoes) {
  AwsQueryParams params(Values{
      {"RoleName", ""}, {"MaxItems", "0"}, {"Flag", "TRUE"}, {"Bad", "yes"}, {"Count", "12x"}});
  EXPECT_EQ(params.Required("RoleName"), "");  // present but empty is a value
  EXPECT_EQ(Refusal([&] { params.Required("PolicyArn"); }),
            "400 ValidationError: 1 validation error detected: Value null at 'policyArn' failed to "
            "satisfy constraint: Member must not be null");
  EXPECT_EQ(Refusal([&] { params.Length("RoleName", 1, 64, true); }),
            "400 ValidationError: 1 validation error detected: Value '' at 'roleName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1");
  EXPECT_EQ(params.Length("Path", 1, 512, false), "");
  EXPECT_EQ(Refusal([&] { params.Integer("MaxItems", 1, 1000); }),
            "400 ValidationError: 1 validation error detected: Value '0' at 'maxItems' failed to "
            "satisfy constraint: Member must have value greater than or equal to 1");
  EXPECT_EQ(Refusal([&] { params.Integer("Count", 1, 10); }),
            "400 ValidationError: 1 validation error detected: Value '12x' at 'count' failed to "
            "satisfy constraint: Member must be a number");
  EXPECT_EQ(params.Integer("Absent", 1, 10), std::nullopt);
  EXPECT_TRUE(params.Bool("Flag", false));
  EXPECT_FALSE(params.Bool("Absent", false));
  EXPECT_EQ(Refusal([&] { params.Bool("Bad", false); }),
            "400 ValidationError: 1 validation error detected: Value 'yes' at 'bad' failed to "
            "satisfy constraint: Member must be a boolean");
}

TEST(AwsQueryParamsTest, TagsAreCheckedStructures) {
  AwsQueryParams good(Values{{"Tags.member.2.Key", "b"},
                             {"Tags.member.1.Key", "a"},
                             {"Tags.member.1.Value", "1"},
                             {"Tags.member.3.Other", "ignored"}});
  std::vector<QueryTag> tags = good.Tags();
  ASSERT_EQ(tags.size(), 2u);
  EXPECT_EQ(tags[0].key + "=" + tags[0].value, "a=1");
  EXPECT_EQ(tags[1].key + "=" + tags[1].value, "b=");

  AwsQueryParams keyless(Values{{"Tags.member.1.Value", "v"}});
  EXPECT_EQ(Refusal([&] { keyless.Tags(); }),
            "400 ValidationError: 1 validation error detected: Value null at 'tags.member.1.key' "
            "failed to satisfy constraint: Member must not be null");
  AwsQueryParams long_value(
      Values{{"Tags.member.1.Key", "k"}, {"Tags.member.1.Value", std::string(257, 'v')}});
  EXPECT_NE(Refusal([&] { long_value.Tags(); }).find("at 'tags.member.1.value'"),
            std::string::npos);
}

TEST(AwsQueryParamsTest, FindActionChecksActionAndVersion) {
  std::map<std::string, int> table{{"GetRole", 1}};
  EXPECT_EQ(FindAction(QueryParams(Values{{"Action", "GetRole"}}), table, "2010-05-08"), 1);
  EXPECT_EQ(Refusal([&] { FindAction(QueryParams(Values{}), table, "2010-05-08"); }),
            "400 MissingAction: The request must contain the parameter Action.");
  EXPECT_EQ(Refusal([&] {
              FindAction(QueryParams(Values{{"Action", "Nope"}}), table, "2010-05-08");
            }),
            "400 InvalidAction: Could not find operation Nope for version 2010-05-08");
  EXPECT_EQ(Refusal([&] {
              FindAction(QueryParams(Values{{"Action", "GetRole"}, {"Version", "2011-06-15"}}),
                         table, "2010-05-08");
            }),
            "400 InvalidAction: Could not find operation GetRole for version 2011-06-15");
}

TEST(Ec2QueryParamsTest, RefusesAsEc2Does) {
  Ec2QueryParams params(
      Values{{"VpcId", ""}, {"Flag", "TRUE"}, {"Count", "-12"}, {"Huge", "1234567890123"}});
  EXPECT_EQ(Refusal([&] { params.Require("VpcId"); }),
            "400 MissingParameter: The request must contain the parameter VpcId");
  EXPECT_EQ(
      Refusal([&] { params.GetBool("Flag", false); }),
      "400 InvalidParameterValue: Value (TRUE) for parameter Flag is invalid. Expected a boolean.");
  EXPECT_EQ(params.GetInt("Count"), -12);
  EXPECT_EQ(params.GetInt("Absent"), std::nullopt);
  EXPECT_EQ(Refusal([&] { params.GetInt("Huge"); }),
            "400 InvalidParameterValue: Value (1234567890123) for parameter Huge is invalid. "
            "Expected an integer.");
  EXPECT_EQ(Refusal([&] { params.RequireAction(); }),
            "400 MissingAction: The request must contain the parameter Action");
  EXPECT_EQ(Refusal([] { throw InvalidEc2Action("Nope"); }),
            "400 InvalidAction: The action Nope is not valid for this web service.");
}

}  // namespace
}  // namespace strata::sandbox
