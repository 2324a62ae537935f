#include "engine/plan/render_json.h"

#include <gtest/gtest.h>

#include "tests/unit/plan/golden.h"
#include "tests/unit/plan/plan_fixtures.h"

namespace strata {
namespace {

using nlohmann::json;
using plan_test::S;

json Render(const Plan& p) {
  // Round-trip through text, as a tool would read it.
  return json::parse(RenderPlanJson(p, {.strata_version = "0.1.0", .timestamp = "2026-01-01T00:00:00Z"}).dump());
}

const json& ChangeOf(const json& j, const std::string& address) {
  for (const auto& rc : j.at("resource_changes")) {
    if (rc.at("address") == address) return rc;
  }
  static const json none;
  ADD_FAILURE() << "no resource_change " << address;
  return none;
}

TEST(RenderJsonTest, TopLevelKeysInTerraformOrder) {
  auto j = RenderPlanJson(plan_test::TerraformDataPlan(), {.strata_version = "0.1.0", .timestamp = "2026-01-01T00:00:00Z"});
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"format_version", "terraform_version", "strata_version", "strata_environment", "variables",
                                            "planned_values", "resource_changes", "output_changes", "prior_state",
                                            "configuration", "timestamp", "applyable", "complete", "errored"}));
  EXPECT_EQ(j["format_version"], "1.2");
  EXPECT_EQ(j["terraform_version"], "1.11.0");
  EXPECT_EQ(j["applyable"], true);
  EXPECT_EQ(j["complete"], true);
  EXPECT_EQ(j["errored"], false);
}

TEST(RenderJsonTest, CreateShape) {
  json j = Render(plan_test::TerraformDataPlan());
  const json& rc = ChangeOf(j, "terraform_data.new");
  EXPECT_EQ(rc["mode"], "managed");
  EXPECT_EQ(rc["type"], "terraform_data");
  EXPECT_EQ(rc["name"], "new");
  EXPECT_FALSE(rc.contains("index"));
  EXPECT_FALSE(rc.contains("module_address"));
  EXPECT_FALSE(rc.contains("action_reason"));
  EXPECT_EQ(rc["provider_name"], "strata/builtin");
  const json& ch = rc["change"];
  EXPECT_EQ(ch["actions"], json::array({"create"}));
  EXPECT_TRUE(ch["before"].is_null());
  // Unknown attributes are left out of `after` and flagged in after_unknown.
  EXPECT_EQ(ch["after"], json::parse(R"({"input":"hello","triggers_replace":null})"));
  EXPECT_EQ(ch["after_unknown"], json::parse(R"({"id":true,"output":true})"));
  EXPECT_EQ(ch["before_sensitive"], false);
  EXPECT_EQ(ch["after_sensitive"], json::object());
  EXPECT_FALSE(ch.contains("replace_paths"));
}

TEST(RenderJsonTest, SensitiveValuesInClearButFlagged) {
  json j = Render(plan_test::TerraformDataPlan());
  const json& rc = ChangeOf(j, "terraform_data.many[0]");
  EXPECT_EQ(rc["index"], 0);
  EXPECT_EQ(rc["change"]["after"]["input"], "s3cret");  // as Terraform does
  EXPECT_EQ(rc["change"]["after_sensitive"], json::parse(R"({"input":true})"));
  EXPECT_EQ(j["variables"]["secret"]["value"], "s3cret");
  const json& out = j["output_changes"]["secret"];
  EXPECT_EQ(out["after"], "s3cret");
  EXPECT_EQ(out["before_sensitive"], true);
  EXPECT_EQ(out["after_sensitive"], true);
  EXPECT_EQ(j["planned_values"]["outputs"]["secret"]["sensitive"], true);
}

TEST(RenderJsonTest, ReplaceAndDelete) {
  json j = Render(plan_test::TerraformDataPlan());
  const json& rep = ChangeOf(j, "terraform_data.rep");
  EXPECT_EQ(rep["change"]["actions"], json::parse(R"(["delete","create"])"));
  EXPECT_EQ(rep["change"]["replace_paths"], json::parse(R"([["triggers_replace"]])"));
  EXPECT_EQ(rep["action_reason"], "replace_because_cannot_update");
  EXPECT_EQ(rep["change"]["before_sensitive"], json::object());

  const json& gone = ChangeOf(j, "terraform_data.gone");
  EXPECT_EQ(gone["change"]["actions"], json::array({"delete"}));
  EXPECT_TRUE(gone["change"]["after"].is_null());
  EXPECT_EQ(gone["change"]["after_unknown"], json::object());
  EXPECT_EQ(gone["change"]["after_sensitive"], false);
  EXPECT_EQ(gone["action_reason"], "delete_because_no_resource_config");

  EXPECT_EQ(ChangeOf(j, "terraform_data.same")["change"]["actions"], json::array({"no-op"}));
}

TEST(RenderJsonTest, NestedAfterUnknownAndSensitiveShapes) {
  json j = Render(plan_test::TerraformDataPlan());
  const json& ch = ChangeOf(j, "terraform_data.upd")["change"];
  EXPECT_EQ(ch["actions"], json::array({"update"}));
  // Terraform: arrays keep one entry per element, objects drop false entries.
  EXPECT_EQ(ch["after_unknown"], json::parse(R"({"input":{"list":[false,false],"tags":{}},"output":true})"));
  EXPECT_EQ(ch["before_sensitive"],
            json::parse(R"({"input":{"list":[false,false],"tags":{}},"output":{"list":[false,false],"tags":{}}})"));
  EXPECT_EQ(ch["after_sensitive"], json::parse(R"({"input":{"list":[false,false],"tags":{}}})"));

  // Deeper: an unknown list element and a sensitive map value.
  Value v = Value::Object({{"l", Value::List({S("a"), Value::Unknown()})},
                           {"m", Value::Map({{"k", S("s").MarkSensitive()}, {"p", S("x")}})}});
  EXPECT_EQ(UnknownAsBool(v), nlohmann::ordered_json::parse(R"({"l":[false,true],"m":{}})"));
  EXPECT_EQ(SensitiveAsBool(v), nlohmann::ordered_json::parse(R"({"l":[false,false],"m":{"k":true}})"));
  EXPECT_EQ(KnownValueJson(v), nlohmann::ordered_json::parse(R"({"l":["a",null],"m":{"k":"s","p":"x"}})"));
}

TEST(RenderJsonTest, OutputChanges) {
  json j = Render(plan_test::TerraformDataPlan());
  const json& oc = j["output_changes"];
  EXPECT_EQ(oc["changed"], json::parse(R"({"actions":["update"],"before":"old","after":"new","after_unknown":false,
                                          "before_sensitive":false,"after_sensitive":false})"));
  EXPECT_EQ(oc["dropped"]["actions"], json::array({"delete"}));
  EXPECT_TRUE(oc["dropped"]["after"].is_null());
  EXPECT_EQ(oc["kept"]["actions"], json::array({"no-op"}));
  EXPECT_FALSE(oc["unknown"].contains("after"));  // Terraform leaves an unknown after out
  EXPECT_EQ(oc["unknown"]["after_unknown"], true);
  EXPECT_EQ(j["planned_values"]["outputs"]["unknown"], json::parse(R"({"sensitive":false})"));
  EXPECT_EQ(j["planned_values"]["outputs"]["changed"], json::parse(R"({"sensitive":false,"type":"string","value":"new"})"));
}

TEST(RenderJsonTest, PlannedValuesAndPriorState) {
  json j = Render(plan_test::TerraformDataPlan());
  const json& res = j["planned_values"]["root_module"]["resources"];
  std::vector<std::string> addrs;
  for (const auto& r : res) addrs.push_back(r["address"]);
  EXPECT_EQ(addrs, (std::vector<std::string>{"terraform_data.many[0]", "terraform_data.new", "terraform_data.rep",
                                             "terraform_data.same", "terraform_data.upd"}));
  EXPECT_EQ(res[0], json::parse(R"({"address":"terraform_data.many[0]","mode":"managed","type":"terraform_data",
      "name":"many","index":0,"provider_name":"strata/builtin","schema_version":0,
      "values":{"input":"s3cret","triggers_replace":null},"sensitive_values":{"input":true}})"));
  const json& prior = j["prior_state"];
  EXPECT_EQ(prior["format_version"], "1.0");
  std::vector<std::string> prior_addrs;
  for (const auto& r : prior["values"]["root_module"]["resources"]) prior_addrs.push_back(r["address"]);
  EXPECT_EQ(prior_addrs, (std::vector<std::string>{"terraform_data.gone", "terraform_data.rep",
                                                   "terraform_data.same", "terraform_data.upd"}));
  EXPECT_EQ(prior["values"]["outputs"]["dropped"], json::parse(R"({"sensitive":false,"type":"string","value":"d"})"));
  const json& cfg = j["configuration"]["root_module"]["resources"];
  ASSERT_EQ(cfg.size(), 5u);
  EXPECT_EQ(cfg[0]["address"], "terraform_data.many");
  EXPECT_TRUE(cfg[0]["expressions"].is_object());
}

TEST(RenderJsonTest, ChildModules) {
  Plan p;
  p.changes.push_back(plan_test::Change(plan_test::Addr("t", "a", {}, ModulePath{}.Child("net")), Action::Create,
                                        Value(), Value::Object({{"x", S("1")}})));
  p.changes.push_back(plan_test::Change(
      plan_test::Addr("t", "b", {}, ModulePath{}.Child("net").Child("sub", InstanceKey::String("k"))),
      Action::Create, Value(), Value::Object({{"x", S("1")}})));
  json j = Render(p);
  const json& root = j["planned_values"]["root_module"];
  EXPECT_FALSE(root.contains("resources"));
  ASSERT_EQ(root["child_modules"].size(), 1u);
  const json& net = root["child_modules"][0];
  EXPECT_EQ(net["address"], "module.net");
  EXPECT_EQ(net["resources"][0]["address"], "module.net.t.a");
  EXPECT_EQ(net["child_modules"][0]["address"], "module.net.module.sub[\"k\"]");
  EXPECT_EQ(ChangeOf(j, "module.net.t.a")["module_address"], "module.net");
  EXPECT_FALSE(j.contains("prior_state"));
}

TEST(RenderJsonTest, RecreateBecauseGoneHasNoTerraformReason) {
  Plan p;
  auto c = plan_test::Change(plan_test::Addr("t", "a"), Action::Create, Value(), Value::Object({{"x", S("1")}}));
  c.reason = ActionReason::RecreateBecauseGone;
  p.changes.push_back(c);
  EXPECT_FALSE(Render(p)["resource_changes"][0].contains("action_reason"));
}

TEST(RenderJsonTest, ErroredAndEmpty) {
  Plan p;
  p.errored = true;
  json j = Render(p);
  EXPECT_EQ(j["errored"], true);
  EXPECT_EQ(j["applyable"], false);
  EXPECT_EQ(j["complete"], false);
  EXPECT_FALSE(j.contains("resource_changes"));
  EXPECT_TRUE(j["planned_values"]["root_module"].is_object());
}

TEST(RenderJsonTest, GoldenTerraformDataPlan) {
  plan_test::ExpectGolden(
      "terraform_data.json",
      RenderPlanJson(plan_test::TerraformDataPlan(), {.strata_version = "0.1.0", .timestamp = "2026-01-01T00:00:00Z"}).dump(2) + "\n");
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(RenderJsonTest, ConfigurationModuleCalls) {
  Plan p;
  auto net = ModulePath{}.Child("net", InstanceKey::Int(0));
  for (auto key : {InstanceKey::Int(0), InstanceKey::Int(1)}) {
    p.changes.push_back(plan_test::Change(plan_test::Addr("t", "a", key, net), Action::Create, Value(),
                                          Value::Object({{"x", plan_test::S("1")}})));
  }
  auto j = nlohmann::json::parse(RenderPlanJson(p, {.strata_version = "0.1.0", .timestamp = "t"}).dump());
  const auto& rm = j["configuration"]["root_module"];
  EXPECT_FALSE(rm.contains("resources"));
  const auto& res = rm["module_calls"]["net"]["module"]["resources"];
  ASSERT_EQ(res.size(), 1u);
  EXPECT_EQ(res[0]["address"], "t.a");
  EXPECT_EQ(res[0]["provider_config_key"], "builtin");
}

}  // namespace
}  // namespace strata
