// The sandbox's EventBridge service called directly: what the provider's suites do not reach
// — schedules, paging, the quota of five targets per rule, Enable/DisableRule, the refusals
// of malformed input — with EventBridge's codes.

#include <gtest/gtest.h>

#include "sandbox/service.h"

namespace strata::sandbox {
namespace {

class EventsServiceTest : public ::testing::Test {
 protected:
  EventsServiceTest() : world_(World::Open("")), events_(NewEventsService()) {}

  //! The answer of `action`, or {"__type": code} when refused.
  Json Call(const std::string& action, const Json& body) {
    Request request;
    request.method = "POST";
    request.path = "/";
    request.headers = {{"x-amz-target", "AWSEvents." + action}};
    request.body = body.dump();
    request.service = "events";
    request.region = "us-west-2";
    request.request_id = "req";
    ServiceContext ctx{*world_, request, settings_, std::chrono::system_clock::now(), "", ""};
    world_->Begin();
    try {
      Response response = events_->Handle(ctx);
      world_->Commit();
      EXPECT_EQ(response.content_type, "application/x-amz-json-1.1");
      return Json::parse(response.body);
    } catch (const ApiError& e) {
      world_->Rollback();
      return {{"__type", e.code}, {"message", e.what()}};
    }
  }
  std::string Refusal(const std::string& action, const Json& body) {
    return Call(action, body).value("__type", "");
  }

  SandboxSettings settings_;
  std::unique_ptr<World> world_;
  std::unique_ptr<Service> events_;
};

constexpr const char* kPattern =
    R"({"source":["aws.ec2"],"detail-type":["EC2 Spot Instance Interruption Warning"]})";

TEST_F(EventsServiceTest, PutRuleMakesAndReplacesByName) {
  Json made = Call(
      "PutRule",
      {{"Name", "spot"}, {"EventPattern", kPattern}, {"Tags", {{{"Key", "a"}, {"Value", "1"}}}}});
  EXPECT_EQ(made["RuleArn"], "arn:aws:events:us-west-2:111122223333:rule/spot");
  Json again =
      Call("PutRule",
           {{"Name", "spot"}, {"ScheduleExpression", "rate(5 minutes)"}, {"State", "DISABLED"}});
  EXPECT_EQ(again["RuleArn"], made["RuleArn"]);
  Json rule = Call("DescribeRule", {{"Name", "spot"}});
  EXPECT_EQ(rule["State"], "DISABLED");
  EXPECT_EQ(rule["ScheduleExpression"], "rate(5 minutes)");
  EXPECT_FALSE(rule.contains("EventPattern")) << "PutRule replaces the definition";
  Json tags = Call("ListTagsForResource", {{"ResourceARN", made["RuleArn"]}});
  EXPECT_EQ(tags["Tags"], Json::parse(R"([{"Key":"a","Value":"1"}])")) << "tags stay with the rule";
  Call("EnableRule", {{"Name", "spot"}});
  EXPECT_EQ(Call("DescribeRule", {{"Name", "spot"}})["State"], "ENABLED");
  EXPECT_EQ(Refusal("DisableRule", {{"Name", "nope"}}), "ResourceNotFoundException");
  EXPECT_EQ(Call("DescribeRule", {{"Name", "nope"}})["message"],
            "Rule nope does not exist on EventBus default.");
}

TEST_F(EventsServiceTest, PutRuleRefusesWhatEventBridgeRefuses) {
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}}), "ValidationException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"EventPattern", "{not json"}}),
            "InvalidEventPatternException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"EventPattern", R"({"source":"aws.ec2"})"}}),
            "InvalidEventPatternException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"EventPattern", R"({"source":[]})"}}),
            "InvalidEventPatternException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"ScheduleExpression", "rate(0 minutes)"}}),
            "ValidationException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"ScheduleExpression", "rate(2 minute)"}}),
            "ValidationException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"ScheduleExpression", "cron(0 12 * * ?)"}}),
            "ValidationException");
  EXPECT_FALSE(Call("PutRule", {{"Name", "r"}, {"ScheduleExpression", "cron(0 12 * * ? *)"}})
                   .contains("__type"));
  EXPECT_EQ(Refusal("PutRule", {{"Name", "bad name"}, {"EventPattern", kPattern}}),
            "ValidationException");
  EXPECT_EQ(Refusal("PutRule", {{"Name", "r"}, {"EventPattern", kPattern}, {"State", "ON"}}),
            "ValidationException");
  EXPECT_EQ(
      Refusal("PutRule", {{"Name", "r"}, {"EventPattern", kPattern}, {"EventBusName", "other"}}),
      "ResourceNotFoundException");
}

TEST_F(EventsServiceTest, TargetsUpsertByIdUpToFivePerRule) {
  Call("PutRule", {{"Name", "spot"}, {"EventPattern", kPattern}});
  Json targets = Json::array();
  for (int i = 0; i < 5; ++i)
    targets.push_back({{"Id", "t" + std::to_string(i)}, {"Arn", "arn:aws:sqs:us-west-2:1:q"}});
  EXPECT_EQ(Call("PutTargets", {{"Rule", "spot"}, {"Targets", targets}})["FailedEntryCount"], 0);
  // The same ids again replace, a sixth is over the quota.
  targets[0]["Input"] = R"({"a":1})";
  EXPECT_EQ(Call("PutTargets", {{"Rule", "spot"}, {"Targets", targets}})["FailedEntryCount"], 0);
  EXPECT_EQ(
      Refusal("PutTargets", {{"Rule", "spot"}, {"Targets", {{{"Id", "t5"}, {"Arn", "arn:x"}}}}}),
      "LimitExceededException");
  Json page = Call("ListTargetsByRule", {{"Rule", "spot"}, {"Limit", 2}});
  ASSERT_EQ(page["Targets"].size(), 2u);
  EXPECT_EQ(page["Targets"][0]["Input"], R"({"a":1})");
  Json rest = Call("ListTargetsByRule", {{"Rule", "spot"}, {"NextToken", page["NextToken"]}});
  EXPECT_EQ(rest["Targets"].size(), 3u);
  EXPECT_FALSE(rest.contains("NextToken"));

  EXPECT_EQ(Refusal("PutTargets",
                    {{"Rule", "spot"}, {"Targets", {{{"Id", "x"}, {"Arn", "a"}, {"Input", "{"}}}}}),
            "ValidationException");
  EXPECT_EQ(Refusal("PutTargets",
                    {{"Rule", "spot"},
                     {"Targets",
                      {{{"Id", "x"}, {"Arn", "a"}, {"Input", "{}"}, {"InputPath", "$.detail"}}}}}),
            "ValidationException");
  EXPECT_EQ(Refusal("PutTargets", {{"Rule", "nope"}, {"Targets", targets}}),
            "ResourceNotFoundException");

  EXPECT_EQ(Call("DeleteRule", {{"Name", "spot"}})["message"],
            "Rule can't be deleted since it has targets.");
  Call("RemoveTargets", {{"Rule", "spot"}, {"Ids", {"t0", "t1", "t2", "t3", "t4"}}});
  EXPECT_FALSE(Call("DeleteRule", {{"Name", "spot"}}).contains("__type"));
  EXPECT_FALSE(Call("DeleteRule", {{"Name", "spot"}}).contains("__type"))
      << "a missing rule is deleted already";
}

TEST_F(EventsServiceTest, ListRulesPagesByPrefix) {
  for (const char* name : {"nth-a", "nth-b", "nth-c", "other"})
    Call("PutRule", {{"Name", name}, {"EventPattern", kPattern}});
  Json first = Call("ListRules", {{"NamePrefix", "nth-"}, {"Limit", 2}});
  ASSERT_EQ(first["Rules"].size(), 2u);
  EXPECT_EQ(first["Rules"][0]["Name"], "nth-a");
  Json second =
      Call("ListRules", {{"NamePrefix", "nth-"}, {"Limit", 2}, {"NextToken", first["NextToken"]}});
  ASSERT_EQ(second["Rules"].size(), 1u);
  EXPECT_EQ(second["Rules"][0]["Name"], "nth-c");
  EXPECT_EQ(Call("ListRules", Json::object())["Rules"].size(), 4u);
}

TEST_F(EventsServiceTest, TagsByRuleArn) {
  std::string arn = Call("PutRule", {{"Name", "spot"}, {"EventPattern", kPattern}})["RuleArn"];
  Call("TagResource", {{"ResourceARN", arn},
                       {"Tags", {{{"Key", "a"}, {"Value", "1"}}, {{"Key", "b"}, {"Value", "2"}}}}});
  Call("UntagResource", {{"ResourceARN", arn}, {"TagKeys", {"a"}}});
  EXPECT_EQ(Call("ListTagsForResource", {{"ResourceARN", arn}})["Tags"],
            Json::parse(R"([{"Key":"b","Value":"2"}])"));
  EXPECT_EQ(Refusal("ListTagsForResource", {{"ResourceARN", arn + "x"}}),
            "ResourceNotFoundException");
}

}  // namespace
}  // namespace strata::sandbox
