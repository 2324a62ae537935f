// Strings in the human plan, checked against Terraform 1.11: JSON strings drawn as
// jsonencode(...) with a structural diff, multi-line strings as heredocs with a line diff,
// map keys of untyped values (outputs, attributes of type any). Each case is the plan of one
// resource of tests/plan_format/strings_scenario.py, built by hand; its block must appear,
// character for character, in Terraform's plan of that scenario
// (tests/golden/plan/strings_terraform.txt, copied from what
// tests/plan_format/compare_strings_with_terraform.sh records).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/plan/render_human.h"
#include "tests/unit/plan/golden.h"
#include "tests/unit/plan/plan_fixtures.h"

namespace strata {
namespace {

using plan_test::Addr;
using plan_test::Change;
using plan_test::Data;
using plan_test::S;

std::string TerraformRecording() {
  std::ifstream in(std::filesystem::path(STRATA_SOURCE_DIR) / "tests/golden/plan/strings_terraform.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Terraform's block for terraform_data.<name>: from its "  # terraform_data.<name> ..."
// line to the resource's closing "    }".
std::string TerraformBlock(const std::string& name) {
  static const std::string text = TerraformRecording();
  size_t start = text.find("  # terraform_data." + name + " ");
  if (start == std::string::npos) return "(no block for " + name + " in the recording)";
  size_t end = text.find("\n    }\n", start);
  return text.substr(start, end + 7 - start);
}

// terraform_data's schema: input and output are of type any.
class TerraformDataSchemas : public SchemaSource {
 public:
  TerraformDataSchemas() {
    schema_.type = "terraform_data";
    schema_.attributes["id"].type = Type::Primitive(Type::Kind::String);
    schema_.attributes["input"].type = Type::Any();
    schema_.attributes["output"].type = Type::Any();
    schema_.attributes["triggers_replace"].type = Type::Any();
  }
  const ResourceSchema* Find(ResourceMode, const std::string& type) const override {
    return type == schema_.type ? &schema_ : nullptr;
  }
  std::vector<std::string> TypeNames(ResourceMode) const override { return {schema_.type}; }

 private:
  ResourceSchema schema_;
};

const TerraformDataSchemas kSchemas;
const HumanRenderOptions kOptions{false, &kSchemas};

// An input changed from `before` to `after`: output, a copy of input, becomes unknown.
ResourceInstanceChange Updated(const std::string& name, Value before, Value after) {
  return Change(Addr("terraform_data", name), Action::Update, Data(S("<id>"), before, before),
                Data(S("<id>"), after, Value::Unknown()));
}

void ExpectAsTerraform(const ResourceInstanceChange& c) {
  EXPECT_EQ(TerraformBlock(c.addr.resource.name), RenderResourceChangeHuman(c, kOptions));
}

TEST(RenderStringsTest, JsonObjectChangeHidesUnchangedKeys) {
  ExpectAsTerraform(Updated("obj", S(R"({"a":1,"b":"x","c":true,"d":null})"), S(R"({"a":2,"b":"x","c":true,"d":null})")));
}

TEST(RenderStringsTest, JsonArrayChanges) {
  // Same length: elements pair by position; longer: the inserted element, with context.
  ExpectAsTerraform(Updated("arr_same_len", S(R"(["a","b","c"])"), S(R"(["a","x","c"])")));
  ExpectAsTerraform(Updated("arr_grow", S(R"(["a","b","c","d","e","f"])"), S(R"(["a","b","c","X","d","e","f"])")));
}

TEST(RenderStringsTest, NestedJson) {
  ExpectAsTerraform(Updated(
      "policy",
      S(R"({"Version":"2012-10-17","Statement":[{"Sid":"One","Effect":"Allow","Action":["s3:GetObject"],)"
        R"("Resource":"*"},{"Sid":"Two","Effect":"Deny","Action":"s3:*","Resource":"arn:aws:s3:::b"}]})"),
      S(R"({"Version":"2012-10-17","Statement":[{"Sid":"One","Effect":"Allow","Action":["s3:GetObject",)"
        R"("s3:PutObject"],"Resource":"*"},{"Sid":"Two","Effect":"Deny","Action":"s3:*","Resource":)"
        R"("arn:aws:s3:::b"}]})")));
  // JSON inside a JSON string and a multi-line string inside JSON are drawn as such too.
  ExpectAsTerraform(Updated("nested_json", S(R"({"a":{"b":{"c":[1,2]},"s":"{\"in\":1}"},"t":"x\ny"})"),
                            S(R"({"a":{"b":{"c":[1,3]},"s":"{\"in\":2}"},"t":"x\nz"})")));
}

TEST(RenderStringsTest, JsonKeysAddedRemovedQuotedAndImportant) {
  ExpectAsTerraform(Updated("keys", S(R"({"a":1,"b":2,"name":"n","my key":1,"x-y":2})"),
                            S(R"({"a":1,"c":3,"name":"n","my key":5,"x-y":2})")));
}

TEST(RenderStringsTest, JsonTypeChanges) {
  ExpectAsTerraform(Updated("retyped", S(R"({"a":1,"b":[1],"c":null})"), S(R"({"a":"1","b":{"k":1},"c":"now"})")));
  ExpectAsTerraform(Updated("to_plain", S(R"({"a":1})"), S("plain")));
  ExpectAsTerraform(Updated("from_plain", S("plain"), S("[1, 2]")));
}

TEST(RenderStringsTest, JsonWhitespaceOnlyChange) {
  ExpectAsTerraform(Updated("ws", S(R"({"a":1})"), S(R"({ "a": 1 })")));
}

TEST(RenderStringsTest, JsonAndHeredocCreatedAndDeleted) {
  ExpectAsTerraform(Change(Addr("terraform_data", "new_json"), Action::Create, Value(),
                           Data(Value::Unknown(), S(R"({"k":[1,{"x":"y"}],"e":{},"l":[]})"), Value::Unknown())));
  ExpectAsTerraform(Change(Addr("terraform_data", "new_doc"), Action::Create, Value(),
                           Data(Value::Unknown(), S("  first\nsecond\n"), Value::Unknown())));
  for (auto [name, input] : {std::pair{"gone", S(R"({"a":[1,2],"b":{}})")}, std::pair{"doc_gone", S("bye\nnow\n")}}) {
    auto c = Change(Addr("terraform_data", name), Action::Delete, Data(S("<id>"), input, input), Value());
    c.reason = ActionReason::DeleteBecauseNoResourceConfig;
    ExpectAsTerraform(c);
  }
}

TEST(RenderStringsTest, HeredocLineChanges) {
  ExpectAsTerraform(Updated("doc", S("line1\nline2\nline3\n"), S("line1\nline2 changed\nline3\n")));
  ExpectAsTerraform(Updated("doc_grow", S("one\ntwo\nthree\nfour\n"), S("one\nthree\nfour\nfive\n")));
  ExpectAsTerraform(Updated("doc_shrink", S("a\nb\nc\nd\ne\n"), S("a\nc\ne\n")));
  ExpectAsTerraform(Updated("single", S("single"), S("now\nmulti\n")));
}

TEST(RenderStringsTest, SensitiveAndUnknown) {
  // Terraform's state does not mark terraform_data's copy of a sensitive input: built as it
  // has it (Strata's own plan keeps the copy sensitive).
  ExpectAsTerraform(Change(Addr("terraform_data", "secret"), Action::Update,
                           Data(S("<id>"), S(R"({"a":1})").MarkSensitive(), S(R"({"a":1})")),
                           Data(S("<id>"), S(R"({"a":2})").MarkSensitive(), Value::Unknown())));
  ExpectAsTerraform(Updated("unk", S(R"({"a":1})"), Value::Unknown()));
}

TEST(RenderStringsTest, StringsInsideObjects) {
  ExpectAsTerraform(
      Updated("nested", Value::Object({{"policy", S(R"({"a":1,"b":2})")}, {"doc", S("x\ny\n")}, {"plain", S("p")}}),
              Value::Object({{"policy", S(R"({"a":1,"b":3})")}, {"doc", S("x\nz\n")}, {"plain", S("p")}})));
}

TEST(RenderStringsTest, KeysOfUntypedValuesAreQuotedAsObjectKeys) {
  auto n = [](double d) { return Value::Number(d); };
  ExpectAsTerraform(Updated("mapkeys",
                            Value::Object({{"a b", n(1)}, {"x-y", n(2)}, {"ok", n(3)}, {"1st", n(4)}, {"_u", n(5)}}),
                            Value::Object({{"a b", n(1)}, {"x-y", n(3)}, {"ok", n(3)}, {"1st", n(5)}, {"_u", n(6)}})));
  // A map(string) variable's value keeps its map kind; input is of type any, so Terraform
  // draws it as an object.
  ExpectAsTerraform(Updated("mapvar", Value::Map({{"a", S("1")}, {"b c", S("2")}, {"d", S("3")}, {"name", S("n")}}),
                            Value::Map({{"a", S("1")}, {"b c", S("2")}, {"d", S("4")}, {"name", S("n")}})));
}

TEST(RenderStringsTest, OutputsAsTerraform) {
  Value m1 = Value::Map({{"a", S("1")}, {"b c", S("2")}, {"d", S("3")}, {"name", S("n")}});
  Value m2 = Value::Map({{"a", S("1")}, {"b c", S("2")}, {"d", S("4")}, {"name", S("n")}});
  Plan p;
  p.output_changes = {
      {"doc", Action::Update, S("a\nb\n"), S("a\nc\n"), false},
      {"gone_json", Action::Delete, S(R"({"z":1})"), Value(), false},
      {"m", Action::Update, Value::Object({{"a b", Value::Number(1)}, {"ok", Value::Number(2)}}),
       Value::Object({{"a b", Value::Number(2)}, {"ok", Value::Number(2)}}), false},
      {"newmap", Action::Create, Value(),
       Value::Object({{"a b", Value::Number(1)}, {"x-y", Value::Number(2)}, {"ok", Value::Number(3)}}), false},
      {"pol", Action::Update, S(R"({"a":1,"b":[1,2]})"), S(R"({"a":1,"b":[1,3]})"), false},
      {"tm", Action::Update, m1, m2, false},
      {"tm_new", Action::Create, Value(), m2, false},
  };
  std::string text = RenderPlanHuman(p);
  std::string section = text.substr(0, text.find("\nYou can apply this plan"));
  std::string recording = TerraformRecording();
  EXPECT_EQ(recording.substr(recording.find("Changes to Outputs:")), section);
}

TEST(RenderStringsTest, DriftDrawsStringsTheSameWay) {
  Plan p;
  p.drift.push_back(Updated("policy", S(R"({"Statement":[{"Action":"s3:Get"}]})"), S(R"({"Statement":[{"Action":"s3:Put"}]})")));
  p.drift.back().after = Data(S("<id>"), S(R"({"Statement":[{"Action":"s3:Put"}]})"), S(R"({"Statement":[{"Action":"s3:Put"}]})"));
  std::string drift = RenderDriftHuman(p, kOptions);
  EXPECT_NE(drift.find("  # terraform_data.policy has changed\n"
                       "  ~ resource \"terraform_data\" \"policy\" {\n"
                       "        id     = \"<id>\"\n"
                       "      ~ input  = jsonencode(\n"
                       "          ~ {\n"
                       "              ~ Statement = [\n"
                       "                  ~ {\n"
                       "                      ~ Action = \"s3:Get\" -> \"s3:Put\"\n"
                       "                    },\n"
                       "                ]\n"
                       "            }\n"
                       "        )\n"),
            std::string::npos)
      << drift;
}

// Not in the Terraform scenario (terraform_data's triggers_replace is dynamic, and Terraform
// prints no replacement note for those): where the note goes in a JSON document and a heredoc.
TEST(RenderStringsTest, ForcesReplacementNote) {
  auto c = Change(Addr("test_policy", "p"), Action::DeleteThenCreate,
                  Value::Object({{"id", S("p-1")}, {"policy", S(R"({"a":1})")}, {"script", S("a\nb\n")},
                                 {"spaced", S(R"({"a":1})")}}),
                  Value::Object({{"id", Value::Unknown()}, {"policy", S(R"({"a":2})")}, {"script", S("a\nc\n")},
                                 {"spaced", S(R"({ "a": 1 })")}}));
  c.requires_replace = {AttrPath::Of("policy"), AttrPath::Of("script"), AttrPath::Of("spaced")};
  c.reason = ActionReason::ReplaceBecauseCannotUpdate;
  plan_test::ExpectGolden("strings_replace.txt", RenderResourceChangeHuman(c));
}

// A document nested deeper than the engine accepts anywhere is not drawn as JSON (drawing
// recurses), and a string that only looks like JSON stays a string.
TEST(RenderStringsTest, DeepOrBrokenJsonStaysAString) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto c = Updated("deep", S(deep.c_str()), S("x"));
  std::string text = RenderResourceChangeHuman(c, kOptions);
  EXPECT_EQ(text.find("jsonencode"), std::string::npos);
  EXPECT_NE(text.find("~ input  = \"[[[["), std::string::npos);
  auto broken = Updated("broken", S(R"({"a":1)"), S(R"({"a":2})"));
  EXPECT_NE(RenderResourceChangeHuman(broken, kOptions).find(R"(~ input  = "{\"a\":1" -> jsonencode()"), std::string::npos)
      << RenderResourceChangeHuman(broken, kOptions);
}

}  // namespace
}  // namespace strata
