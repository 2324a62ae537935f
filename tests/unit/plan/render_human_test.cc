#include "engine/plan/render_human.h"

#include <gtest/gtest.h>

#include "tests/unit/plan/golden.h"
#include "tests/unit/plan/plan_fixtures.h"

namespace strata {
namespace {

using plan_test::Addr;
using plan_test::Change;
using plan_test::ExpectGolden;
using plan_test::S;

Plan One(ResourceInstanceChange c) {
  Plan p;
  p.changes.push_back(std::move(c));
  return p;
}

TEST(RenderHumanTest, Create) {
  Value after = Value::Object({{"id", Value::Unknown()},
                               {"triggers", Value::Map({{"a", S("1")}, {"b c", S("2")}})},
                               {"list", Value::List({S("x"), Value::Number(2)})},
                               {"empty", Value::List({})},
                               {"enabled", Value::Bool(true)},
                               {"unset", Value()}});
  ExpectGolden("create.txt", RenderPlanHuman(One(Change(Addr("null_resource", "a"), Action::Create, Value(), after))));
}

TEST(RenderHumanTest, UpdateInPlace) {
  Value before = Value::Object({{"id", S("i-1")}, {"name", S("web")}, {"size", Value::Number(1)},
                                {"note", S("same")}, {"other", S("same")}});
  Value after = Value::Object({{"id", S("i-1")}, {"name", S("web")}, {"size", Value::Number(2)},
                               {"note", S("same")}, {"other", S("same")}});
  ExpectGolden("update.txt", RenderPlanHuman(One(Change(Addr("test_vm", "web"), Action::Update, before, after))));
}

TEST(RenderHumanTest, ReplaceForcesReplacement) {
  Value before = Value::Object({{"id", S("i-1")}, {"ami", S("ami-1")}, {"size", Value::Number(1)},
                                {"tags", Value::Map({{"env", S("dev")}})}});
  Value after = Value::Object({{"id", Value::Unknown()}, {"ami", S("ami-2")}, {"size", Value::Number(1)},
                               {"tags", Value::Map({{"env", S("prod")}})}});
  auto c = Change(Addr("test_vm", "web", InstanceKey::String("a")), Action::DeleteThenCreate, before, after);
  c.requires_replace = {AttrPath::Of("ami"), AttrPath::Of("tags")};
  c.reason = ActionReason::ReplaceBecauseCannotUpdate;
  auto cbd = Change(Addr("test_vm", "cbd"), Action::CreateThenDelete, before, after);
  cbd.requires_replace = {AttrPath::Of("ami")};
  auto tainted = Change(Addr("test_vm", "tainted"), Action::DeleteThenCreate, before, before);
  tainted.reason = ActionReason::ReplaceBecauseTainted;
  auto requested = Change(Addr("test_vm", "requested"), Action::DeleteThenCreate, before, before);
  requested.reason = ActionReason::ReplaceByRequest;
  Plan p;
  p.changes = {c, cbd, tainted, requested};
  ExpectGolden("replace.txt", RenderPlanHuman(p));
}

TEST(RenderHumanTest, DeleteWithReasons) {
  Value before = Value::Object({{"id", S("i-1")}, {"tags", Value::Map({{"env", S("dev")}})}, {"n", Value()}});
  Plan p;
  auto a = Change(Addr("null_resource", "a"), Action::Delete, before, Value());
  a.reason = ActionReason::DeleteBecauseNoResourceConfig;
  auto b = Change(Addr("null_resource", "b", InstanceKey::Int(2)), Action::Delete, before, Value());
  b.reason = ActionReason::DeleteBecauseCountIndex;
  auto c = Change(Addr("null_resource", "c", InstanceKey::String("x")), Action::Delete, before, Value());
  c.reason = ActionReason::DeleteBecauseEachKey;
  auto d = Change(Addr("null_resource", "d", {}, ModulePath{}.Child("net")), Action::Delete, before, Value());
  d.reason = ActionReason::DeleteBecauseNoModule;
  auto gone = Change(Addr("null_resource", "gone"), Action::Create, Value(),
                     Value::Object({{"id", Value::Unknown()}, {"x", S("1")}}));
  gone.reason = ActionReason::RecreateBecauseGone;
  p.changes = {a, b, c, d, gone};
  ExpectGolden("delete.txt", RenderPlanHuman(p));
}

TEST(RenderHumanTest, SensitiveAndUnknown) {
  Value before = Value::Object({{"id", S("i-1")}, {"password", S("pw-old").MarkSensitive()},
                                {"token", S("t").MarkSensitive()}, {"arn", S("arn:1")},
                                {"conf", Value::Map({{"k", S("v")}})}});
  Value after = Value::Object({{"id", S("i-1")}, {"password", S("pw-new").MarkSensitive()},
                               {"token", S("t").MarkSensitive()}, {"arn", Value::Unknown()},
                               {"conf", Value::Unknown()}});
  Plan p;
  p.changes = {Change(Addr("test_db", "main"), Action::Update, before, after),
               Change(Addr("test_db", "new"), Action::Create, Value(),
                      Value::Object({{"id", Value::Unknown()}, {"password", S("pw-create").MarkSensitive()}}))};
  std::string text = RenderPlanHuman(p);
  EXPECT_EQ(text.find("pw-"), std::string::npos);
  ExpectGolden("sensitive_unknown.txt", text);
}

TEST(RenderHumanTest, NestedMapListDiffs) {
  Value before = Value::Object(
      {{"id", S("i-1")},
       {"tags", Value::Map({{"env", S("dev")}, {"team", S("x")}, {"old", S("o")}, {"keep", S("k")}})},
       {"cidrs", Value::List({S("10.0.0.0/8"), S("10.1.0.0/16"), S("10.2.0.0/16")})},
       {"rules", Value::List({Value::Object({{"port", Value::Number(80)}, {"proto", S("tcp")}}),
                              Value::Object({{"port", Value::Number(443)}, {"proto", S("tcp")}})})},
       {"settings", Value::Object({{"a", S("1")}, {"b", S("2")}})}});
  Value after = Value::Object(
      {{"id", S("i-1")},
       {"tags", Value::Map({{"env", S("prod")}, {"team", S("x")}, {"new", S("n")}, {"keep", S("k")}})},
       {"cidrs", Value::List({S("10.0.0.0/8"), S("10.3.0.0/16"), S("10.2.0.0/16")})},
       {"rules", Value::List({Value::Object({{"port", Value::Number(80)}, {"proto", S("tcp")}}),
                              Value::Object({{"port", Value::Number(8443)}, {"proto", S("tcp")}})})},
       {"settings", Value::Object({{"a", S("1")}, {"b", S("3")}})}});
  ExpectGolden("nested.txt", RenderPlanHuman(One(Change(Addr("test_sg", "web"), Action::Update, before, after))));
}

// A schema source with one type whose configurable lists and sets of objects are blocks.
class BlockSchemas : public SchemaSource {
 public:
  BlockSchemas() {
    schema_.type = "test_cluster";
    Add("id", "string", Kind::Computed);
    Add("name", "string", Kind::Required);
    Add("vpc_config",
        "list(object({subnet_ids=set(string), public=optional(bool), rule=optional(list(object({port=number})))}))",
        Kind::Required);
    Add("ingress", "set(object({port=number, cidr=string}))", Kind::Optional);
    Add("certificate", "list(object({data=string}))", Kind::Computed);
  }
  const ResourceSchema* Find(ResourceMode, const std::string& type) const override {
    return type == schema_.type ? &schema_ : nullptr;
  }
  std::vector<std::string> TypeNames(ResourceMode) const override { return {schema_.type}; }

 private:
  enum class Kind { Required, Optional, Computed };
  void Add(const std::string& name, const char* type, Kind kind) {
    AttributeSchema& a = schema_.attributes[name];
    a.type = *ParseType(type).type;
    a.required = kind == Kind::Required;
    a.optional = kind == Kind::Optional;
    a.computed = kind == Kind::Computed;
  }
  ResourceSchema schema_;
};

Value WithAttr(const Value& object, const std::string& name, Value value) {
  ValueMap m = object.AsMap();
  m[name] = std::move(value);
  return Value::Object(std::move(m));
}

Value Ingress(double port, const char* cidr) {
  return Value::Object({{"port", Value::Number(port)}, {"cidr", S(cidr)}});
}

// Blocks are drawn as Terraform draws them: "+ vpc_config {", nested blocks inside, a blank
// line before each group, unchanged blocks counted; computed-only lists of objects stay values.
TEST(RenderHumanTest, BlocksCreateAndUpdate) {
  BlockSchemas schemas;
  HumanRenderOptions options{false, &schemas};
  Value vpc = Value::Object({{"subnet_ids", Value::Set({S("subnet-a"), S("subnet-b")})},
                             {"public", Value::Bool(false)},
                             {"rule", Value::List({Value::Object({{"port", Value::Number(443)}})})}});
  Value before = Value::Object({{"id", S("c-1")},
                                {"name", S("demo")},
                                {"vpc_config", Value::List({vpc})},
                                {"ingress", Value::Set({Ingress(22, "10.0.0.0/8"), Ingress(80, "0.0.0.0/0")})},
                                {"certificate", Value::List({Value::Object({{"data", S("Q0E=")}})})}});
  Value created = WithAttr(before, "id", Value::Unknown());
  created = WithAttr(created, "certificate", Value::Unknown());
  ExpectGolden("blocks_create.txt",
               RenderPlanHuman(One(Change(Addr("test_cluster", "c"), Action::Create, Value(), created)), options));

  Value vpc_after = WithAttr(vpc, "public", Value::Bool(true));
  vpc_after = WithAttr(vpc_after, "rule", Value::List({Value::Object({{"port", Value::Number(443)}}),
                                                          Value::Object({{"port", Value::Number(8443)}})}));
  Value after = WithAttr(before, "vpc_config", Value::List({vpc_after}));
  after = WithAttr(after, "ingress", Value::Set({Ingress(22, "10.0.0.0/8"), Ingress(443, "0.0.0.0/0")}));
  ExpectGolden("blocks_update.txt",
               RenderPlanHuman(One(Change(Addr("test_cluster", "c"), Action::Update, before, after)), options));
}

TEST(RenderHumanTest, NoChanges) {
  Plan p;
  Value v = Value::Object({{"id", S("x")}});
  p.changes = {Change(Addr("null_resource", "a"), Action::NoOp, v, v)};
  p.output_changes = {{"o", Action::NoOp, S("a"), S("a"), false}};
  ExpectGolden("no_changes.txt", RenderPlanHuman(p));
}

TEST(RenderHumanTest, OutputsOnly) {
  Plan p;
  p.output_changes = {{"name", Action::Create, Value(), S("x"), false},
                      {"list", Action::Update, Value::Tuple({S("a")}), Value::Tuple({S("a"), S("b")}), false}};
  ExpectGolden("outputs_only.txt", RenderPlanHuman(p));
}

TEST(RenderHumanTest, TerraformDataScenario) {
  // The same plan as tests/plan_format/compare_with_terraform.sh makes with Terraform.
  ExpectGolden("terraform_data.txt", RenderPlanHuman(plan_test::TerraformDataPlan()));
}

TEST(RenderHumanTest, DataRead) {
  ResourceInstanceChange c = Change(Addr("aws_ami", "ubuntu"), Action::Read, Value(),
                                    Value::Object({{"id", Value::Unknown()}, {"owner", S("me")}}));
  c.addr.resource.mode = ResourceMode::Data;
  c.reason = ActionReason::ReadBecauseDependencyPending;
  ExpectGolden("data_read.txt", RenderPlanHuman(One(c)));
}

TEST(RenderHumanTest, ColorOnlyWhenAsked) {
  Plan p = plan_test::TerraformDataPlan();
  EXPECT_EQ(RenderPlanHuman(p).find('\x1b'), std::string::npos);
  std::string colored = RenderPlanHuman(p, {.color = true});
  EXPECT_NE(colored.find("\x1b[32m+\x1b[0m"), std::string::npos);
  EXPECT_NE(colored.find("\x1b[33m~\x1b[0m"), std::string::npos);
  EXPECT_NE(colored.find("\x1b[31m-\x1b[0m"), std::string::npos);
}

TEST(RenderHumanTest, NoOpChangeRendersNothing) {
  Value v = Value::Object({{"id", S("x")}});
  EXPECT_EQ(RenderResourceChangeHuman(Change(Addr("t", "a"), Action::NoOp, v, v)), "");
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(RenderHumanTest, ObjectFromStateMeetsConfigMap) {
  // State decoded from JSON holds objects/tuples; config may hold tomap/tolist values.
  Value before = Value::Object({{"id", plan_test::S("i")},
                                {"labels", Value::Object({{"a", plan_test::S("1")}, {"b", plan_test::S("2")}})},
                                {"ports", Value::Tuple({Value::Number(80)})}});
  Value after = Value::Object({{"id", plan_test::S("i")},
                               {"labels", Value::Map({{"a", plan_test::S("1")}, {"b", plan_test::S("3")}})},
                               {"ports", Value::List({Value::Number(80)})}});
  std::string text = RenderResourceChangeHuman(
      plan_test::Change(plan_test::Addr("t", "x"), Action::Update, before, after));
  EXPECT_EQ(text,
            "  # t.x will be updated in-place\n"
            "  ~ resource \"t\" \"x\" {\n"
            "        id     = \"i\"\n"
            "      ~ labels = {\n"
            "          ~ \"b\" = \"2\" -> \"3\"\n"
            "            # (1 unchanged element hidden)\n"
            "        }\n"
            "        # (1 unchanged attribute hidden)\n"
            "    }\n");
}

}  // namespace
}  // namespace strata
