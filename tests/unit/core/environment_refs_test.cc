// ${env.name} and the environment's variables file envs/NAME.yaml, through the engine.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/core/engine.h"
#include "engine/core/environment_refs.h"
#include "engine/value/format.h"
#include "tests/unit/config/temp_project.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

class EnvironmentRefsTest : public testing::TempProject {
 protected:
  std::string OutputOf(const std::string& module, EngineOptions options, const std::string& name = "v") {
    WriteSingleStageProject();
    Write("main/main.yaml", module);
    diags_ = Diagnostics();
    auto e = Evaluate("main", std::move(options));
    if (!e || diags_.HasErrors()) return "<error> " + Messages();
    auto outputs = e->RootOutputs();
    auto it = outputs.find(name);
    return it == outputs.end() ? "<none>" : FormatValue(it->second);
  }
};

const char* kModule =
    "variables:\n"
    "  size: { type: number, default: 1 }\n"
    "outputs:\n"
    "  v: { value: \"${env.name}-${var.size}\" }\n";

TEST_F(EnvironmentRefsTest, EnvNameIsTheEnvironment) {
  EXPECT_EQ(OutputOf(kModule, {}), "\"default-1\"");
  EngineOptions prod;
  prod.environment = "prod";
  EXPECT_EQ(OutputOf(kModule, prod), "\"prod-1\"");
}

TEST_F(EnvironmentRefsTest, TheEnvironmentsFileComesBetweenStrataVarAndVarFiles) {
  Write("envs/prod.yaml", "size: 3\nother_stages_variable: 7\n");
  std::string var_file = Write("more.yaml", "size: 4\n");
  EngineOptions options;
  options.environment = "prod";
  options.variables.env = {{"size", "2"}};
  EXPECT_EQ(OutputOf(kModule, options), "\"prod-3\"");
  EXPECT_THAT(Messages(), ::testing::Not(HasSubstr("other_stages_variable")));
  options.variables.arguments = {VariableArgument::File(var_file)};
  EXPECT_EQ(OutputOf(kModule, options), "\"prod-4\"");
  options.variables.arguments.push_back(VariableArgument::Var("size", "5"));
  EXPECT_EQ(OutputOf(kModule, options), "\"prod-5\"");
  // Another environment does not read prod's file; a missing file is fine.
  EngineOptions staging;
  staging.environment = "staging";
  EXPECT_EQ(OutputOf(kModule, staging), "\"staging-1\"");
  EXPECT_EQ(EnvironmentVariablesFile(Path(), "staging"), "");
  EXPECT_EQ(EnvironmentVariablesFile(Path(), "prod"), Path("envs/prod.yaml"));
}

TEST_F(EnvironmentRefsTest, AnEnvironmentsFileThatIsNotAMappingIsAnError) {
  Write("envs/prod.yaml", "- 1\n- 2\n");
  EngineOptions options;
  options.environment = "prod";
  std::string out = OutputOf(kModule, options);
  EXPECT_THAT(out, HasSubstr("environment's variables file holds a mapping"));
  EXPECT_THAT(out, HasSubstr("prod.yaml:1:1"));
}

TEST_F(EnvironmentRefsTest, EnvOtherThanNameIsAnErrorWithItsPlace) {
  std::string out = OutputOf("outputs:\n  v: { value: \"${env.region}\" }\n", {});
  EXPECT_THAT(out, HasSubstr("main.yaml:2:"));
  EXPECT_THAT(out, HasSubstr("env.region does not exist: use env.name"));
  EXPECT_THAT(OutputOf("outputs:\n  v: { value: \"${env}\" }\n", {}), HasSubstr("env.name is the selected environment"));
  EXPECT_THAT(OutputOf("outputs:\n  v: { value: \"${terraform.workspace}\" }\n", {}), HasSubstr("env.name"));
}

}  // namespace
}  // namespace strata
