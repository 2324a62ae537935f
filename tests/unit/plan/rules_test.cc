#include "engine/plan/rules.h"

#include <gtest/gtest.h>

#include "tests/unit/plan/plan_fixtures.h"

namespace strata {
namespace {

using plan_test::S;

AttributeSchema Attr(bool required, bool optional, bool computed, bool force_new = false, bool sensitive = false) {
  AttributeSchema a;
  a.required = required;
  a.optional = optional;
  a.computed = computed;
  a.force_new = force_new;
  a.sensitive = sensitive;
  return a;
}

ResourceSchema TestSchema() {
  ResourceSchema s;
  s.type = "test_thing";
  s.attributes["id"] = Attr(false, false, true);
  s.attributes["name"] = Attr(true, false, false, true);
  s.attributes["size"] = Attr(false, true, false);
  s.attributes["arn"] = Attr(false, false, true);
  s.attributes["region"] = Attr(false, true, true);
  s.attributes["password"] = Attr(false, true, false, false, true);
  return s;
}

TEST(ProposedNewTest, CreateMarksUnsetComputedUnknown) {
  Value config = Value::Object({{"name", S("a")}});
  Value p = ProposedNewValue(TestSchema(), Value(), config);
  const auto& m = p.AsMap();
  EXPECT_EQ(m.at("name").AsString(), "a");
  EXPECT_TRUE(m.at("id").IsUnknown());
  EXPECT_TRUE(m.at("arn").IsUnknown());
  EXPECT_TRUE(m.at("region").IsUnknown());
  EXPECT_TRUE(m.at("size").IsNull());
  EXPECT_TRUE(m.at("password").IsNull());
}

TEST(ProposedNewTest, ComputedKeepPriorConfigWins) {
  Value prior = Value::Object({{"id", S("i-1")}, {"name", S("a")}, {"size", Value::Number(1)},
                               {"arn", S("arn:1")}, {"region", S("eu")}});
  Value config = Value::Object({{"name", S("a")}, {"size", Value::Number(2)}, {"region", S("us")}});
  Value p = ProposedNewValue(TestSchema(), prior, config);
  const auto& m = p.AsMap();
  EXPECT_EQ(m.at("id").AsString(), "i-1");
  EXPECT_EQ(m.at("arn").AsString(), "arn:1");
  EXPECT_EQ(m.at("region").AsString(), "us");  // optional+computed set in config: config wins
  EXPECT_EQ(m.at("size").AsNumber(), 2);
}

TEST(ProposedNewTest, OptionalComputedUnsetKeepsPrior) {
  Value prior = Value::Object({{"id", S("i-1")}, {"name", S("a")}, {"region", S("eu")}});
  Value p = ProposedNewValue(TestSchema(), prior, Value::Object({{"name", S("a")}}));
  EXPECT_EQ(p.AsMap().at("region").AsString(), "eu");
}

TEST(ProposedNewTest, OptionalUnsetBecomesNull) {
  Value prior = Value::Object({{"id", S("i-1")}, {"name", S("a")}, {"size", Value::Number(1)}});
  Value p = ProposedNewValue(TestSchema(), prior, Value::Object({{"name", S("a")}}));
  EXPECT_TRUE(p.AsMap().at("size").IsNull());
}

TEST(ProposedNewTest, SensitiveAttributeMarked) {
  Value p = ProposedNewValue(TestSchema(), Value(), Value::Object({{"name", S("a")}, {"password", S("pw")}}));
  EXPECT_TRUE(p.AsMap().at("password").IsSensitive());
  EXPECT_FALSE(p.AsMap().at("name").IsSensitive());
}

TEST(ProposedNewTest, NullConfigIsNull) {
  EXPECT_TRUE(ProposedNewValue(TestSchema(), Value::Object({{"id", S("x")}}), Value()).IsNull());
}

TEST(ProposedNewTest, DynamicSchemaKeepsUnlistedConfig) {
  ResourceSchema s = TestSchema();
  s.dynamic = true;
  Value p = ProposedNewValue(s, Value(), Value::Object({{"name", S("a")}, {"spec", S("x")}}));
  EXPECT_EQ(p.AsMap().at("spec").AsString(), "x");
}

TEST(DiffAttributesTest, NestedPaths) {
  Value b = Value::Object({{"a", S("1")}, {"tags", Value::Map({{"env", S("dev")}, {"x", S("y")}})},
                           {"l", Value::List({S("p"), S("q")})}});
  Value a = Value::Object({{"a", S("1")}, {"tags", Value::Map({{"env", S("prod")}, {"x", S("y")}})},
                           {"l", Value::List({S("p"), S("r")})}});
  auto paths = DiffAttributes(b, a);
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0].ToString(), "l[1]");
  EXPECT_EQ(paths[1].ToString(), "tags[\"env\"]");
}

TEST(DiffAttributesTest, UnknownAddedRemovedAndLengthChange) {
  Value b = Value::Object({{"id", S("x")}, {"old", S("o")}, {"l", Value::List({S("p")})}});
  Value a = Value::Object({{"id", Value::Unknown()}, {"new", S("n")}, {"l", Value::List({S("p"), S("q")})}});
  auto paths = DiffAttributes(b, a);
  std::vector<std::string> s;
  for (const auto& p : paths) s.push_back(p.ToString());
  EXPECT_EQ(s, (std::vector<std::string>{"id", "l", "new", "old"}));
  EXPECT_TRUE(DiffAttributes(b, b).empty());
  EXPECT_TRUE(DiffAttributes(S("x"), S("x").MarkSensitive()).empty());
}

TEST(RequiresReplaceTest, ForceNewChangedOrUnknown) {
  ResourceSchema s = TestSchema();
  Value prior = Value::Object({{"name", S("a")}, {"size", Value::Number(1)}});
  EXPECT_TRUE(RequiresReplace(s, prior, Value::Object({{"name", S("a")}, {"size", Value::Number(2)}})).empty());
  auto r = RequiresReplace(s, prior, Value::Object({{"name", S("b")}}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].ToString(), "name");
  EXPECT_EQ(RequiresReplace(s, prior, Value::Object({{"name", Value::Unknown()}})).size(), 1u);
  EXPECT_TRUE(RequiresReplace(s, Value(), Value::Object({{"name", S("b")}})).empty());  // create
}

TEST(IgnoreChangesTest, PathsAndAll) {
  Value prior = Value::Object({{"name", S("a")}, {"tags", Value::Map({{"env", S("dev")}, {"team", S("x")}})},
                               {"size", Value::Number(1)}});
  Value planned = Value::Object({{"name", S("b")}, {"tags", Value::Map({{"env", S("prod")}, {"team", S("y")}})},
                                 {"size", Value::Number(2)}});
  IgnoreChanges ig;
  ig.paths = {AttrPath::Of("name"), *AttrPath::Parse("tags[\"env\"]")};
  Value r = ApplyIgnoreChanges(prior, planned, ig);
  EXPECT_EQ(r.AsMap().at("name").AsString(), "a");
  EXPECT_EQ(r.AsMap().at("tags").AsMap().at("env").AsString(), "dev");
  EXPECT_EQ(r.AsMap().at("tags").AsMap().at("team").AsString(), "y");
  EXPECT_EQ(r.AsMap().at("size").AsNumber(), 2);

  IgnoreChanges all;
  all.all = true;
  EXPECT_TRUE(ApplyIgnoreChanges(prior, planned, all).Equals(prior));
  // Creates ignore ignore_changes.
  EXPECT_TRUE(ApplyIgnoreChanges(Value(), planned, all).Equals(planned));
}

TEST(IgnoreChangesTest, KeyAbsentBeforeIsRemoved) {
  Value prior = Value::Object({{"tags", Value::Map({{"a", S("1")}})}});
  Value planned = Value::Object({{"tags", Value::Map({{"a", S("1")}, {"b", S("2")}})}});
  IgnoreChanges ig;
  ig.paths = {*AttrPath::Parse("tags[\"b\"]")};
  EXPECT_TRUE(ApplyIgnoreChanges(prior, planned, ig).Equals(prior));
}

TEST(AttrPathTest, ParseAndPrint) {
  for (const char* text : {"a", "tags[\"env\"]", "rules[0].cidr", "a.b.c"}) {
    auto p = AttrPath::Parse(text);
    ASSERT_TRUE(p) << text;
    EXPECT_EQ(p->ToString(), text);
  }
  EXPECT_FALSE(AttrPath::Parse(""));
  EXPECT_FALSE(AttrPath::Parse("a["));
  EXPECT_FALSE(AttrPath::Parse("a[x]"));
}

TEST(DecideActionTest, Decisions) {
  Value v1 = Value::Object({{"a", S("1")}});
  Value v2 = Value::Object({{"a", S("2")}});
  // Inputs for an object in state and in config, adjusted per case.
  auto in_state = [&](Value prior, Value planned) {
    ActionInputs in;
    in.prior_exists = true;
    in.prior = std::move(prior);
    in.planned = std::move(planned);
    return in;
  };

  auto d = [&] { ActionInputs in; in.planned = v1; return DecideAction(in); }();
  EXPECT_EQ(d.action, Action::Create);
  EXPECT_EQ(d.reason, ActionReason::None);

  d = DecideAction(in_state(v1, v1));
  EXPECT_EQ(d.action, Action::NoOp);

  d = DecideAction(in_state(v1, v2));
  EXPECT_EQ(d.action, Action::Update);

  d = [&] { auto in = in_state(v1, v2); in.requires_replace = {AttrPath::Of("a")}; return DecideAction(in); }();
  EXPECT_EQ(d.action, Action::DeleteThenCreate);
  EXPECT_EQ(d.reason, ActionReason::ReplaceBecauseCannotUpdate);

  d = [&] {
    auto in = in_state(v1, v2);
    in.requires_replace = {AttrPath::Of("a")};
    in.create_before_destroy = true;
    return DecideAction(in);
  }();
  EXPECT_EQ(d.action, Action::CreateThenDelete);

  d = [&] { auto in = in_state(v1, v1); in.tainted = true; return DecideAction(in); }();
  EXPECT_EQ(d.action, Action::DeleteThenCreate);
  EXPECT_EQ(d.reason, ActionReason::ReplaceBecauseTainted);

  d = [&] { auto in = in_state(v1, v1); in.replace_requested = true; return DecideAction(in); }();
  EXPECT_EQ(d.reason, ActionReason::ReplaceByRequest);

  d = [&] { auto in = in_state(v1, Value()); in.in_config = false; return DecideAction(in); }();
  EXPECT_EQ(d.action, Action::Delete);
  EXPECT_EQ(d.reason, ActionReason::DeleteBecauseNoResourceConfig);

  d = [&] {
    auto in = in_state(v1, Value());
    in.in_config = false;
    in.delete_reason = ActionReason::DeleteBecauseCountIndex;
    return DecideAction(in);
  }();
  EXPECT_EQ(d.reason, ActionReason::DeleteBecauseCountIndex);

  d = [&] { ActionInputs in; in.in_config = false; return DecideAction(in); }();
  EXPECT_EQ(d.action, Action::NoOp);

  d = [&] { ActionInputs in; in.planned = v1; in.gone = true; return DecideAction(in); }();
  EXPECT_EQ(d.action, Action::Create);
  EXPECT_EQ(d.reason, ActionReason::RecreateBecauseGone);

  // Unknown planned values are a change.
  d = DecideAction(in_state(v1, Value::Object({{"a", Value::Unknown()}})));
  EXPECT_EQ(d.action, Action::Update);
}

TEST(PreventDestroyTest, OnlyDestroyingActions) {
  auto addr = plan_test::Addr("null_resource", "a");
  EXPECT_FALSE(CheckPreventDestroy(addr, Action::Delete, false));
  EXPECT_FALSE(CheckPreventDestroy(addr, Action::Update, true));
  EXPECT_FALSE(CheckPreventDestroy(addr, Action::Create, true));
  auto err = CheckPreventDestroy(addr, Action::DeleteThenCreate, true);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("null_resource.a has lifecycle.prevent_destroy set"), std::string::npos);
  EXPECT_TRUE(CheckPreventDestroy(addr, Action::Delete, true));
  EXPECT_TRUE(CheckPreventDestroy(addr, Action::CreateThenDelete, true));
}

TEST(CountChangesTest, TerraformCounting) {
  std::vector<ResourceInstanceChange> cs;
  for (Action a : {Action::Create, Action::Create, Action::Update, Action::Delete, Action::DeleteThenCreate,
                   Action::CreateThenDelete, Action::NoOp, Action::Read}) {
    cs.push_back(plan_test::Change(plan_test::Addr("t", "x"), a, Value(), Value()));
  }
  ResourceInstanceChange data_read = plan_test::Change(plan_test::Addr("t", "d"), Action::Read, Value(), Value());
  data_read.addr.resource.mode = ResourceMode::Data;
  cs.push_back(data_read);
  PlanCounts c = CountChanges(cs);
  EXPECT_EQ(c, (PlanCounts{4, 1, 3}));
  EXPECT_EQ(FormatPlanSummary(c), "Plan: 4 to add, 1 to change, 3 to destroy.");
  EXPECT_EQ(CountChanges(plan_test::TerraformDataPlan().changes), (PlanCounts{3, 1, 2}));
}

TEST(ActionNamesTest, JsonSpelling) {
  EXPECT_EQ(ActionJsonNames(Action::DeleteThenCreate), (std::vector<std::string>{"delete", "create"}));
  EXPECT_EQ(ActionJsonNames(Action::CreateThenDelete), (std::vector<std::string>{"create", "delete"}));
  EXPECT_EQ(ActionJsonNames(Action::NoOp), (std::vector<std::string>{"no-op"}));
  EXPECT_STREQ(ActionReasonName(ActionReason::DeleteBecauseEachKey), "delete_because_each_key");
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(DiffAttributesTest, ObjectAndMapCompareAlike) {
  Value b = Value::Object({{"t", Value::Object({{"a", plan_test::S("1")}})}, {"l", Value::Tuple({plan_test::S("x")})}});
  Value a = Value::Object({{"t", Value::Map({{"a", plan_test::S("2")}})}, {"l", Value::List({plan_test::S("x")})}});
  auto paths = DiffAttributes(b, a);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0].ToString(), "t[\"a\"]");
}

}  // namespace
}  // namespace strata
