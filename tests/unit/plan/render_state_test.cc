// `strata show`'s renderers of a state (the text and `terraform show -json`'s document);
// the e2e test show_test.sh checks both against Terraform 1.11 itself.
#include <gtest/gtest.h>

#include "engine/plan/render_human.h"
#include "engine/plan/render_json.h"
#include "tests/unit/plan/plan_fixtures.h"

namespace strata {
namespace {

using plan_test::S;

StateView::Resource Row(ResourceInstanceAddr addr, Value values) {
  return {std::move(addr), "strata/builtin", 0, std::move(values), {}, false};
}

TEST(RenderStateTest, SensitiveValuesReadWithoutTheKeyAreMaskedNotLeftOut) {
  // A state loaded without its key holds a secret as a null carrying the mark.
  StateView view;
  view.resources.push_back(Row(plan_test::Addr("terraform_data", "a"),
                               Value::Object({{"id", S("x")},
                                              {"input", Value::Object({{"name", S("n")}, {"secret", Value().MarkSensitive()}})},
                                              {"password", Value().MarkSensitive()},
                                              {"unset", Value()}})));
  std::string text = RenderStateHuman(view);
  EXPECT_EQ(text,
            "# terraform_data.a:\n"
            "resource \"terraform_data\" \"a\" {\n"
            "    id       = \"x\"\n"
            "    input    = {\n"
            "        name   = \"n\"\n"
            "        secret = (sensitive value)\n"
            "    }\n"
            "    password = (sensitive value)\n"
            "}\n\n");
}

TEST(RenderStateTest, DataSourcesTaintedAndModulesAsTerraformPrintsThem) {
  StateView view;
  ResourceInstanceAddr in_module = plan_test::Addr("terraform_data", "c");
  in_module.module = ModulePath{}.Child("m");
  view.resources.push_back(Row(in_module, Value::Object({{"id", S("c")}})));
  ResourceInstanceAddr data = plan_test::Addr("local_file", "f");
  data.resource.mode = ResourceMode::Data;
  view.resources.push_back(Row(data, Value::Object({{"id", S("f")}})));
  StateView::Resource tainted = Row(plan_test::Addr("terraform_data", "t"), Value::Object({{"id", S("t")}}));
  tainted.tainted = true;
  tainted.depends_on = {"data.local_file.f"};
  view.resources.push_back(tainted);
  view.outputs.push_back({"secret", S("v"), true});
  EXPECT_EQ(RenderStateHuman(view),
            "# data.local_file.f:\n"
            "data \"local_file\" \"f\" {\n"
            "    id = \"f\"\n"
            "}\n\n"
            "# terraform_data.t: (tainted)\n"
            "resource \"terraform_data\" \"t\" {\n"
            "    id = \"t\"\n"
            "}\n\n\n"
            "# module.m.terraform_data.c:\n"
            "resource \"terraform_data\" \"c\" {\n"
            "    id = \"c\"\n"
            "}\n\n\n"
            "Outputs:\n\n"
            "secret = (sensitive value)\n");

  nlohmann::json j = nlohmann::json::parse(RenderStateJson(view).dump());
  const auto& root = j["values"]["root_module"];
  ASSERT_EQ(root["resources"].size(), 2u);
  EXPECT_EQ(root["resources"][0]["mode"], "data");
  EXPECT_EQ(root["resources"][1]["tainted"], true);
  EXPECT_EQ(root["resources"][1]["depends_on"], nlohmann::json::array({"data.local_file.f"}));
  EXPECT_FALSE(root["resources"][0].contains("depends_on"));
  EXPECT_EQ(root["child_modules"][0]["address"], "module.m");
  EXPECT_EQ(j["values"]["outputs"]["secret"], (nlohmann::json{{"sensitive", true}, {"value", "v"}, {"type", "string"}}));
}

TEST(RenderStateTest, AnEmptyStateIsFormatVersionAlone) {
  EXPECT_EQ(RenderStateJson({}).dump(), "{\"format_version\":\"1.0\"}");
  EXPECT_EQ(RenderStateHuman({}), "The state file is empty. No resources are represented.\n");
}

}  // namespace
}  // namespace strata
