// aws_cloudwatch_event_rule and aws_cloudwatch_event_target against the sandbox and moto,
// reached only through the provider's `endpoints` setting: the node termination handler's
// queue mode (four rules — Spot interruption warning, rebalance recommendation, instance
// state change, scheduled change — each with the interruption queue as target), the CRUD
// of each type, import, the natural key of an interrupted create. Where moto departs from
// AWS, the case says so and skips loudly; the provider is never told. moto 5.2 refuses a
// pattern field that is not an array and the delete of a rule with targets as AWS does; the
// two cases skip loudly on a moto that does not. The queue is an aws_sqs_queue.

#include <nlohmann/json.hpp>

#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

constexpr const char* kRegion = "us-west-2";

// The node termination handler's rules, with the event patterns its documentation gives.
constexpr const char* kSpotInterruption =
    R"({"source":["aws.ec2"],"detail-type":["EC2 Spot Instance Interruption Warning"]})";
constexpr const char* kRebalance =
    R"({"source":["aws.ec2"],"detail-type":["EC2 Instance Rebalance Recommendation"]})";
constexpr const char* kStateChange =
    R"({"source":["aws.ec2"],"detail-type":["EC2 Instance State-change Notification"]})";
constexpr const char* kScheduledChange =
    R"({"source":["aws.health"],"detail-type":["AWS Health Event"],)"
    R"("detail":{"service":["EC2"],"eventTypeCategory":["scheduledChange"]}})";

class AwsEventsTest : public RecoveryTest {
 protected:
  AwsEventsTest() : RecoveryTest("EventBridge", {"events", "sqs", "sts"}, kRegion) {}

  void SetUp() override {
    RecoveryTest::SetUp();
    static int n = 0;
    suffix_ = std::to_string(++n);
  }

  //! The interruption queue, made with aws_sqs_queue (deleted after the case); its ARN.
  std::string MakeQueue(const std::string& name) {
    queues_.push_back(MustCreate("aws_sqs_queue", Obj({{"name", S(name)}})));
    return Str(queues_.back(), "arn");
  }
  void TearDown() override {
    for (const Value& queue : queues_) MustDelete("aws_sqs_queue", queue);
  }

  //! A raw EventBridge call: the answer's JSON, or {"error": code}.
  nlohmann::json RawEvents(const std::string& action, const nlohmann::json& body) const {
    RawAnswer answer = RawJson("events", "AWSEvents." + action, body.dump(), "1.1");
    if (!answer.error.empty()) return {{"error", answer.error}};
    return nlohmann::json::parse(answer.body.empty() ? "{}" : answer.body);
  }

  static Value Rule(const std::string& name, const std::string& pattern) {
    return Obj({{"name", S(name)}, {"event_pattern", S(pattern)}});
  }
  static Value Target(const std::string& rule, const std::string& id, const std::string& arn) {
    return Obj({{"rule", S(rule)}, {"target_id", S(id)}, {"arn", S(arn)}});
  }

  std::string suffix_;
  std::vector<Value> queues_;
};

TEST_P(AwsEventsTest, SpotInterruptionRulesIntoOneQueue) {
  std::string queue_arn = MakeQueue("nth-" + suffix_);
  const std::vector<std::pair<std::string, const char*>> rules = {
      {"spot-interruption", kSpotInterruption},
      {"rebalance", kRebalance},
      {"state-change", kStateChange},
      {"scheduled-change", kScheduledChange}};
  std::vector<Value> made_rules, made_targets;
  for (const auto& [what, pattern] : rules) {
    std::string name = "nth-" + suffix_ + "-" + what;
    Value rule = MustCreate("aws_cloudwatch_event_rule",
                            With(Rule(name, pattern), "description", S("NTH: " + what)));
    EXPECT_EQ(Str(rule, "id"), name);
    EXPECT_EQ(Str(rule, "arn"),
              "arn:aws:events:" + std::string(kRegion) + ":" + Account() + ":rule/" + name);
    EXPECT_EQ(Str(rule, "state"), "ENABLED");
    EXPECT_EQ(Attr(rule, "is_enabled"), Value::Bool(true));
    EXPECT_EQ(Str(rule, "event_pattern"), pattern);
    ExpectNoChange("aws_cloudwatch_event_rule", rule,
                   With(Rule(name, pattern), "description", S("NTH: " + what)));
    Value target = MustCreate("aws_cloudwatch_event_target", Target(name, "queue", queue_arn));
    EXPECT_EQ(Str(target, "id"), name + "-queue");
    EXPECT_EQ(Str(target, "arn"), queue_arn);
    ExpectNoChange("aws_cloudwatch_event_target", target, Target(name, "queue", queue_arn));
    made_rules.push_back(rule);
    made_targets.push_back(target);
  }
  nlohmann::json listed = RawEvents("ListRules", {{"NamePrefix", "nth-" + suffix_ + "-"}});
  ASSERT_TRUE(listed.contains("Rules")) << listed.dump();
  EXPECT_EQ(listed["Rules"].size(), 4u) << listed.dump();
  nlohmann::json targets =
      RawEvents("ListTargetsByRule", {{"Rule", "nth-" + suffix_ + "-scheduled-change"}});
  ASSERT_TRUE(targets.contains("Targets")) << targets.dump();
  ASSERT_EQ(targets["Targets"].size(), 1u) << targets.dump();
  EXPECT_EQ(targets["Targets"][0]["Arn"], queue_arn);

  for (const Value& target : made_targets) MustDelete("aws_cloudwatch_event_target", target);
  for (const Value& rule : made_rules) {
    MustDelete("aws_cloudwatch_event_rule", rule);
    EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_cloudwatch_event_rule", rule).gone);
  }
}

TEST_P(AwsEventsTest, RuleCreateReadUpdateImportDelete) {
  std::string name = "rule-" + suffix_;
  Value config = With(With(Rule(name, kSpotInterruption), "description", S("spot")), "tags",
                      Tags({{"team", "ml"}}));
  Value state = MustCreate("aws_cloudwatch_event_rule", config);
  EXPECT_EQ(Attr(state, "tags"), Tags({{"team", "ml"}}));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"team", "ml"}, {"Owner", "strata-tests"}}));
  EXPECT_EQ(Str(state, "event_bus_name"), "default");
  ExpectNoChange("aws_cloudwatch_event_rule", state, config);
  ExpectNoTokenTag(state);

  // Pattern, state, description and tags change in place.
  Value changed =
      With(With(With(With(config, "event_pattern", S(kRebalance)), "state", S("DISABLED")),
                "description", S("rebalance")),
           "tags", Tags({{"team", "platform"}, {"tier", "gpu"}}));
  Value updated = UpdateInPlace("aws_cloudwatch_event_rule", state, changed);
  EXPECT_EQ(Str(updated, "event_pattern"), kRebalance);
  EXPECT_EQ(Str(updated, "state"), "DISABLED");
  EXPECT_EQ(Attr(updated, "is_enabled"), Value::Bool(false));
  EXPECT_EQ(Str(updated, "description"), "rebalance");
  EXPECT_EQ(Attr(updated, "tags"), Tags({{"team", "platform"}, {"tier", "gpu"}}));
  ExpectNoChange("aws_cloudwatch_event_rule", updated, changed);
  nlohmann::json described = RawEvents("DescribeRule", {{"Name", name}});
  EXPECT_EQ(described.value("State", ""), "DISABLED") << described.dump();

  // The older spelling: is_enabled = true enables it again.
  Value older = With(With(changed, "state", Value()), "is_enabled", Value::Bool(true));
  Value enabled = UpdateInPlace("aws_cloudwatch_event_rule", updated, older);
  EXPECT_EQ(Str(enabled, "state"), "ENABLED");
  ExpectNoChange("aws_cloudwatch_event_rule", enabled, older);

  // A new name or bus is a new rule.
  EXPECT_FALSE(PlanUpdate("aws_cloudwatch_event_rule", enabled, With(older, "name", S(name + "-x")))
                   .requires_replace.empty());

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_cloudwatch_event_rule", name);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "id"), name);
  EXPECT_EQ(Str(imported.state, "event_pattern"), kRebalance);
  EXPECT_EQ(Attr(imported.state, "tags_all"), Attr(enabled, "tags_all"));
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_cloudwatch_event_rule", "no-such-rule")
                  .diags.HasErrors());

  MustDelete("aws_cloudwatch_event_rule", enabled);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_cloudwatch_event_rule", enabled).gone);
  MustDelete("aws_cloudwatch_event_rule", enabled);  // already gone: nothing to do
}

TEST_P(AwsEventsTest, APatternInAnotherKeyOrderIsNoChange) {
  std::string name = "order-" + suffix_;
  Value state = MustCreate("aws_cloudwatch_event_rule", Rule(name, kScheduledChange));
  const char* reordered =
      R"({ "detail": {"eventTypeCategory": ["scheduledChange"], "service": ["EC2"]},
                               "detail-type": ["AWS Health Event"], "source": ["aws.health"] })";
  PlanResult same = PlanUpdate("aws_cloudwatch_event_rule", state, Rule(name, reordered));
  ASSERT_FALSE(same.diags.HasErrors()) << Text(same.diags);
  EXPECT_EQ(same.planned, state) << FormatValue(same.planned);
  // The values to match in another order mean the same too; another value does not.
  const char* two =
      R"({"source":["aws.ec2"],"detail-type":["EC2 Spot Instance Interruption Warning",)"
      R"("EC2 Instance Rebalance Recommendation"]})";
  const char* two_swapped = R"({"detail-type":["EC2 Instance Rebalance Recommendation",)"
                            R"("EC2 Spot Instance Interruption Warning"],"source":["aws.ec2"]})";
  Value both = UpdateInPlace("aws_cloudwatch_event_rule", state, Rule(name, two));
  EXPECT_EQ(PlanUpdate("aws_cloudwatch_event_rule", both, Rule(name, two_swapped)).planned, both);
  EXPECT_NE(PlanUpdate("aws_cloudwatch_event_rule", both, Rule(name, kRebalance)).planned, both);
  MustDelete("aws_cloudwatch_event_rule", both);
}

TEST_P(AwsEventsTest, ABadPatternIsAClearError) {
  PlanResult not_json = provider_.PlanResourceChange(ctx_, "aws_cloudwatch_event_rule", Value(),
                                                     Rule("bad-" + suffix_, "{source: aws.ec2"),
                                                     Rule("bad-" + suffix_, "{source: aws.ec2"));
  ASSERT_TRUE(not_json.diags.HasErrors());
  EXPECT_NE(Text(not_json.diags).find("event_pattern is not valid JSON"), std::string::npos)
      << Text(not_json.diags);
  PlanResult neither = provider_.PlanResourceChange(ctx_, "aws_cloudwatch_event_rule", Value(),
                                                    Obj({{"name", S("bad-" + suffix_)}}),
                                                    Obj({{"name", S("bad-" + suffix_)}}));
  EXPECT_TRUE(neither.diags.HasErrors());

  // JSON, but not a pattern: EventBridge refuses it.
  ApplyResult refused =
      Create("aws_cloudwatch_event_rule", Rule("bad-" + suffix_, R"({"source":"aws.ec2"})"));
  if (IsMoto() && !refused.diags.HasErrors()) {
    MustDelete("aws_cloudwatch_event_rule", refused.state);
    GTEST_SKIP()
        << "moto accepts an event pattern whose field is not an array; AWS refuses it with "
           "InvalidEventPatternException";
  }
  ASSERT_TRUE(refused.diags.HasErrors()) << FormatValue(refused.state);
  EXPECT_FALSE(refused.outcome_unknown);
  EXPECT_NE(Text(refused.diags).find("InvalidEventPatternException"), std::string::npos)
      << Text(refused.diags);
}

TEST_P(AwsEventsTest, TargetCreateReadUpdateImportDelete) {
  std::string rule_name = "targets-" + suffix_;
  std::string first = MakeQueue("first-" + suffix_), second = MakeQueue("second-" + suffix_);
  Value rule = MustCreate("aws_cloudwatch_event_rule", Rule(rule_name, kSpotInterruption));
  Value config = Target(rule_name, "sqs", first);
  Value target = MustCreate("aws_cloudwatch_event_target", config);
  EXPECT_EQ(Str(target, "event_bus_name"), "default");
  ExpectNoChange("aws_cloudwatch_event_target", target, config);

  // arn and input change in place; a new target id or rule is a new target.
  Value changed = With(With(config, "arn", S(second)), "input", S(R"({"from":"spot"})"));
  Value updated = UpdateInPlace("aws_cloudwatch_event_target", target, changed);
  EXPECT_EQ(Str(updated, "arn"), second);
  EXPECT_EQ(Str(updated, "input"), R"({"from":"spot"})");
  ExpectNoChange("aws_cloudwatch_event_target", updated, changed);
  EXPECT_FALSE(
      PlanUpdate("aws_cloudwatch_event_target", updated, With(changed, "target_id", S("other")))
          .requires_replace.empty());
  EXPECT_FALSE(PlanUpdate("aws_cloudwatch_event_target", updated, With(changed, "rule", S("other")))
                   .requires_replace.empty());

  // Without a target_id, one is made (Terraform's "terraform-" and 26 characters).
  Value unnamed =
      MustCreate("aws_cloudwatch_event_target", Obj({{"rule", S(rule_name)}, {"arn", S(first)}}));
  EXPECT_EQ(Str(unnamed, "target_id").rfind("terraform-", 0), 0u) << Str(unnamed, "target_id");
  EXPECT_EQ(Str(unnamed, "target_id").size(), 36u);

  ApplyResult imported =
      provider_.ImportResource(ctx_, "aws_cloudwatch_event_target", rule_name + "/sqs");
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(imported.state, updated);
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_cloudwatch_event_target", rule_name + "/none")
                  .diags.HasErrors());
  EXPECT_TRUE(
      provider_.ImportResource(ctx_, "aws_cloudwatch_event_target", "no-slash").diags.HasErrors());

  // The natural key: an interrupted create's target is found, whoever put it.
  ReadResult found =
      provider_.FindInterruptedCreate(ctx_, "aws_cloudwatch_event_target",
                                      PlanCreate("aws_cloudwatch_event_target", changed).planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_EQ(found.state, updated);

  for (const Value& done : {updated, unnamed}) {
    MustDelete("aws_cloudwatch_event_target", done);
    EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_cloudwatch_event_target", done).gone);
  }
  MustDelete("aws_cloudwatch_event_target", updated);  // already gone: nothing to do
  MustDelete("aws_cloudwatch_event_rule", rule);
  MustDelete("aws_cloudwatch_event_target", updated);  // its rule gone too
}

TEST_P(AwsEventsTest, ARuleWithTargetsIsRefusedOnDelete) {
  std::string rule_name = "busy-" + suffix_;
  Value rule = MustCreate("aws_cloudwatch_event_rule", Rule(rule_name, kStateChange));
  Value target = MustCreate("aws_cloudwatch_event_target",
                            Target(rule_name, "q", MakeQueue("busy-" + suffix_)));
  DeleteResult refused = provider_.DeleteResource(ctx_, "aws_cloudwatch_event_rule", rule);
  if (IsMoto() && !refused.diags.HasErrors()) {
    GTEST_SKIP()
        << "moto deletes a rule that still has targets; AWS refuses with ValidationException";
  }
  ASSERT_TRUE(refused.diags.HasErrors());
  EXPECT_NE(Text(refused.diags).find("still has targets"), std::string::npos)
      << Text(refused.diags);
  ExpectReadsBack("aws_cloudwatch_event_rule", rule);
  MustDelete("aws_cloudwatch_event_target", target);
  MustDelete("aws_cloudwatch_event_rule", rule);
}

TEST_P(AwsEventsTest, AnInterruptedRuleCreateIsFoundOnlyByItsToken) {
  std::string name = "crash-" + suffix_;
  Value planned = PlanCreate("aws_cloudwatch_event_rule", Rule(name, kSpotInterruption)).planned;
  std::string token = NewToken();
  Interrupted("aws_cloudwatch_event_rule", planned, token);
  ExpectDestroyFinds("aws_cloudwatch_event_rule", planned, token, "id", name);
  Value resumed = MustResume("aws_cloudwatch_event_rule", planned, token);
  EXPECT_EQ(Str(resumed, "id"), name);
  ExpectNoTokenTag(resumed);
  nlohmann::json listed = RawEvents("ListRules", {{"NamePrefix", name}});
  EXPECT_EQ(listed["Rules"].size(), 1u) << listed.dump();

  // Another create's rule of that name is not taken over, nor is a rule made by hand.
  ExpectNotOursError(Resume("aws_cloudwatch_event_rule", planned, NewToken()));
  ExpectDestroyFindsNothing("aws_cloudwatch_event_rule", planned, NewToken());
  std::string theirs = "theirs-" + suffix_;
  nlohmann::json put = RawEvents("PutRule", {{"Name", theirs}, {"EventPattern", kRebalance}});
  ASSERT_FALSE(put.contains("error")) << put.dump();
  Value their_plan = PlanCreate("aws_cloudwatch_event_rule", Rule(theirs, kRebalance)).planned;
  ExpectNotOursError(Resume("aws_cloudwatch_event_rule", their_plan, NewToken()));
  ExpectDestroyFindsNothing("aws_cloudwatch_event_rule", their_plan, NewToken());

  // A name from a prefix is the same for the create and its recovery.
  Value prefixed = PlanCreate("aws_cloudwatch_event_rule",
                              Obj({{"name_prefix", S("nth-")}, {"event_pattern", S(kStateChange)}}))
                       .planned;
  std::string prefixed_token = NewToken();
  ApplyResult first = Interrupted("aws_cloudwatch_event_rule", prefixed, prefixed_token);
  EXPECT_EQ(Str(first.state, "name").rfind("nth-", 0), 0u);
  ExpectDestroyFinds("aws_cloudwatch_event_rule", prefixed, prefixed_token, "name",
                     Str(first.state, "name"));

  MustDelete("aws_cloudwatch_event_rule", resumed);
  MustDelete("aws_cloudwatch_event_rule", first.state);
  RawEvents("DeleteRule", {{"Name", theirs}});
}

STRATA_AWS_BACKENDS(AwsEventsTest);

}  // namespace
}  // namespace strata::aws
