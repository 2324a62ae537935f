#include "engine/core/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/expr/parser.h"
#include "engine/value/format.h"
#include "tests/unit/config/temp_project.h"
#include "tests/unit/config/yaml_bombs.h"

namespace strata {
namespace {

using ::testing::HasSubstr;
using Arg = VariableArgument;

class EngineTest : public testing::TempProject {
 protected:
  // Writes main/main.yaml and evaluates the stage.
  std::unique_ptr<StageEvaluation> EvalMain(const std::string& text, EngineOptions options = {}) {
    WriteSingleStageProject();
    Write("main/main.yaml", text);
    return Evaluate("main", std::move(options));
  }

  Value Output(const StageEvaluation& e, const std::string& name) {
    auto outputs = e.RootOutputs();
    auto it = outputs.find(name);
    return it == outputs.end() ? Value::Null() : it->second;
  }

  const std::vector<InstanceValue>& Instances(const StageEvaluation& e, const std::string& resource) {
    return e.InstancesOf(e.graph().modules[0].resources.at(resource));
  }
};

const char* kPrecedenceModule =
    "variables:\n"
    "  v: { type: string, default: from-default }\n"
    "outputs:\n"
    "  v: { value: \"${var.v}\" }\n";

TEST_F(EngineTest, VariableDefault) {
  auto e = EvalMain(kPrecedenceModule);
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(Output(*e, "v"), Value::String("from-default"));
}

TEST_F(EngineTest, VariablePrecedence) {
  std::string file1 = Write("one.yaml", "v: from-file-1\n");
  std::string file2 = Write("two.yaml", "v: from-file-2\n");
  struct Case {
    bool env, files, cli;
    const char* expected;
  };
  for (const Case& c : {Case{true, false, false, "from-env"}, Case{true, true, false, "from-file-2"},
                        Case{true, true, true, "from-cli-2"}, Case{false, false, true, "from-cli-2"}}) {
    EngineOptions options;
    if (c.env) options.variables.env = {{"v", "from-env"}};
    if (c.files) options.variables.arguments = {Arg::File(file1), Arg::File(file2)};
    if (c.cli) {
      options.variables.arguments.push_back(Arg::Var("v", "from-cli-1"));
      options.variables.arguments.push_back(Arg::Var("v", "from-cli-2"));
    }
    diags_ = Diagnostics();
    auto e = EvalMain(kPrecedenceModule, options);
    ASSERT_NE(e, nullptr) << Messages();
    EXPECT_EQ(FormatValue(Output(*e, "v")), FormatValue(Value::String(c.expected)));
  }
}

// -var and -var-file apply in the order given, as Terraform's: `-var-file a -var v=x
// -var-file b` lets b override the -var, and a -var after a file overrides the file. The
// environment comes first whatever the order; each value keeps the source that set it.
TEST_F(EngineTest, VarAndVarFileApplyInCommandLineOrder) {
  std::string a = Write("a.yaml", "v: from-a\n");
  std::string b = Write("b.yaml", "v: from-b\n");
  struct Case {
    std::vector<Arg> arguments;
    const char* expected;
  };
  for (const Case& c : {Case{{Arg::File(a), Arg::Var("v", "from-cli"), Arg::File(b)}, "from-b"},
                        Case{{Arg::File(b), Arg::Var("v", "from-cli")}, "from-cli"},
                        Case{{Arg::Var("v", "from-cli"), Arg::File(a)}, "from-a"},
                        Case{{Arg::File(b), Arg::File(a)}, "from-a"}}) {
    EngineOptions options;
    options.variables.env = {{"v", "from-env"}};
    options.variables.arguments = c.arguments;
    diags_ = Diagnostics();
    auto e = EvalMain(kPrecedenceModule, options);
    ASSERT_NE(e, nullptr) << Messages();
    EXPECT_EQ(FormatValue(Output(*e, "v")), FormatValue(Value::String(c.expected)));
  }
  // The error names the source that won: the later file, with its position.
  const char* numeric = "variables:\n  n: { type: number }\noutputs:\n  n: { value: \"${var.n}\" }\n";
  EngineOptions options;
  std::string bad = Write("bad.yaml", "n: [1]\n");
  options.variables.arguments = {Arg::Var("n", "1"), Arg::File(bad)};
  diags_ = Diagnostics();
  EvalMain(numeric, options);
  EXPECT_THAT(Messages(), HasSubstr("bad.yaml:1:4: Invalid value for input variable: The value for \"n\" from -var-file " +
                                    bad + " is not a number"));
  options.variables.arguments = {Arg::File(bad), Arg::Var("n", "2")};
  diags_ = Diagnostics();
  auto e = EvalMain(numeric, options);
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(Output(*e, "n"), Value::Number(2));
}

TEST_F(EngineTest, EnvironmentVariablesAreParsed) {
  const char* env[] = {"PATH=/bin", "STRATA_VAR_region=eu-west-1", "STRATA_VAR_x=a=b", nullptr};
  auto vars = StrataVarsFromEnvironment(env);
  EXPECT_EQ(vars, (std::map<std::string, std::string>{{"region", "eu-west-1"}, {"x", "a=b"}}));
  std::string name, value;
  EXPECT_TRUE(SplitVarFlag("a=b=c", name, value));
  EXPECT_EQ(name, "a");
  EXPECT_EQ(value, "b=c");
  EXPECT_FALSE(SplitVarFlag("novalue", name, value));
}

TEST_F(EngineTest, StructuredVariableFromCli) {
  EngineOptions options;
  options.variables.arguments = {Arg::Var("zones", "[\"a\", \"b\"]")};
  auto e = EvalMain(
      "variables:\n  zones: { type: list(string) }\noutputs:\n  n: { value: \"${length(var.zones)}\" }\n", options);
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(Output(*e, "n"), Value::Number(2));
}

TEST_F(EngineTest, TypeConversionErrorNamesTheSource) {
  const char* module = "variables:\n  n: { type: number }\noutputs:\n  n: { value: \"${var.n}\" }\n";
  {
    EngineOptions options;
    options.variables.arguments = {Arg::Var("n", "abc")};
    EvalMain(module, options);
    EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:2:3: Invalid value for input variable: The value for \"n\" from -var n is "
                                      "not a number"));
  }
  {
    diags_ = Diagnostics();
    EngineOptions options;
    options.variables.env = {{"n", "abc"}};
    EvalMain(module, options);
    EXPECT_THAT(Messages(), HasSubstr("from environment variable STRATA_VAR_n is not a number"));
  }
  {
    diags_ = Diagnostics();
    EngineOptions options;
    options.variables.arguments = {Arg::File(Write("vars.yaml", "# values\nn: [1]\n"))};
    EvalMain(module, options);
    EXPECT_THAT(Messages(), HasSubstr("vars.yaml:2:4: Invalid value for input variable: The value for \"n\" from -var-file " +
                                      Path("vars.yaml") + " is not a number"));
  }
}

TEST_F(EngineTest, UndeclaredCliVariableIsAnErrorAndInFileAWarning) {
  EngineOptions options;
  options.variables.arguments = {Arg::Var("regoin", "x"), Arg::File(Write("vars.yaml", "regoin: x\n"))};
  EvalMain("variables:\n  region: { default: a }\n", options);
  EXPECT_EQ(diags_.ErrorCount(), 1u) << Messages();
  EXPECT_EQ(diags_.size(), 2u);
  EXPECT_THAT(Messages(), HasSubstr("-var sets \"regoin\", but the stage declares no variable of that name. Did you mean \"region\"?"));
  EXPECT_THAT(Messages(), HasSubstr("vars.yaml:1:1: Value for undeclared variable"));
}

TEST_F(EngineTest, RequiredVariableWithoutValue) {
  EvalMain("variables:\n  name: { type: string }\n");
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:2:3: No value for required variable: The variable \"name\" has no default"));
}

TEST_F(EngineTest, ValidationRuleFailureHasMessageAndPosition) {
  EngineOptions options;
  options.variables.arguments = {Arg::Var("name", "much-too-long-for-this-rule")};
  EvalMain(
      "variables:\n"
      "  name:\n"
      "    type: string\n"
      "    validation:\n"
      "      - condition: ${length(var.name) <= 10}\n"
      "        message: \"name must be at most 10 characters, got ${length(var.name)}\"\n",
      options);
  EXPECT_EQ(Messages(), "main/main.yaml:2:3: Invalid value for variable: name must be at most 10 characters, got 27\n\n"
                        "This was checked by the validation rule at " +
                            Path("main/main.yaml") + ":5:9.\n");
}

TEST_F(EngineTest, ValidationRuleFromFilePointsAtTheValue) {
  EngineOptions options;
  options.variables.arguments = {Arg::File(Write("vars.yaml", "n: 50\n"))};
  EvalMain("variables:\n  n:\n    validation: { condition: \"${var.n < 10}\", message: too big }\n", options);
  EXPECT_THAT(Messages(), HasSubstr("vars.yaml:1:4: Invalid value for variable: too big"));
}

TEST_F(EngineTest, SensitiveOutputNeedsSensitiveTrue) {
  const char* module =
      "variables:\n"
      "  password: { type: string, default: hunter2, sensitive: true }\n"
      "outputs:\n"
      "  pw: { value: \"pw=${var.password}\"%s }\n";
  char text[512];
  std::snprintf(text, sizeof text, module, "");
  EvalMain(text);
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:4:17: Output refers to sensitive values: The output \"pw\" shows a sensitive "
                                    "value. Add sensitive: true"));
  diags_ = Diagnostics();
  std::snprintf(text, sizeof text, module, ", sensitive: true");
  auto e = EvalMain(text);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(Messages(), "");
  EXPECT_TRUE(Output(*e, "pw").IsSensitive());
  EXPECT_EQ(Output(*e, "pw").DeepUnmark(), Value::String("pw=hunter2"));
}

TEST_F(EngineTest, CountExpansion) {
  auto e = EvalMain(
      "resources:\n"
      "  x:\n"
      "    type: null_resource\n"
      "    count: 3\n"
      "    properties: { triggers: { i: \"${count.index}\" } }\n"
      "outputs:\n"
      "  second: { value: \"${x[1].triggers.i}\" }\n"
      "  all: { value: \"${x[*].triggers.i}\" }\n");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(Messages(), "");
  const auto& instances = Instances(*e, "x");
  ASSERT_EQ(instances.size(), 3u);
  EXPECT_EQ(instances[0].addr.ToString(), "null_resource.x[0]");
  EXPECT_EQ(instances[2].addr.ToString(), "null_resource.x[2]");
  EXPECT_EQ(Output(*e, "second"), Value::String("1"));
  EXPECT_EQ(FormatValue(Output(*e, "all")), "[\n  \"0\",\n  \"1\",\n  \"2\",\n]");
}

TEST_F(EngineTest, ForEachExpansion) {
  auto e = EvalMain(
      "variables:\n"
      "  zones: { default: { a: 1, b: 2 } }\n"
      "resources:\n"
      "  x:\n"
      "    type: null_resource\n"
      "    for_each: ${var.zones}\n"
      "    properties: { triggers: { k: \"${each.key}\", v: \"${each.value}\" } }\n"
      "  s:\n"
      "    type: null_resource\n"
      "    for_each: ${toset([\"p\", \"q\"])}\n"
      "    properties: { triggers: { k: \"${each.key}\" } }\n"
      "outputs:\n"
      "  b: { value: \"${x[\\\"b\\\"].triggers.v}\" }\n"
      "  keys: { value: \"${[for k, v in s : k]}\" }\n");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(Messages(), "");
  const auto& instances = Instances(*e, "x");
  ASSERT_EQ(instances.size(), 2u);
  EXPECT_EQ(instances[0].addr.ToString(), "null_resource.x[\"a\"]");
  EXPECT_EQ(instances[1].addr.ToString(), "null_resource.x[\"b\"]");
  EXPECT_EQ(Output(*e, "b"), Value::String("2"));
  EXPECT_EQ(FormatValue(Output(*e, "keys")), "[\n  \"p\",\n  \"q\",\n]");
}

// Validate (Terraform's too) accepts a for_each whose keys are not known yet: the body is
// checked once with each.key and each.value unknown, and the resource's value is unknown.
// Plan refuses it (tests/e2e/unknown_repetition_test.sh).
TEST_F(EngineTest, ValidateChecksAForEachOverUnknownKeysOnce) {
  auto e = EvalMain(
      "resources:\n"
      "  r: { type: random_id, properties: { byte_length: 2 } }\n"
      "  x:\n"
      "    type: null_resource\n"
      "    for_each: ${toset([r.hex])}\n"
      "    properties: { triggers: { k: \"${each.key}\", v: \"${each.value}\" } }\n"
      "outputs:\n"
      "  n: { value: \"${length(x)}\" }\n");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(Messages(), "");
  const auto& instances = Instances(*e, "x");
  ASSERT_EQ(instances.size(), 1u);
  EXPECT_EQ(instances[0].addr.ToString(), "null_resource.x");
  EXPECT_TRUE(Output(*e, "n").IsUnknown());
  diags_ = Diagnostics();
  EvalMain(
      "resources:\n"
      "  r: { type: random_id, properties: { byte_length: 2 } }\n"
      "  x:\n"
      "    type: null_resource\n"
      "    for_each: ${toset([r.hex])}\n"
      "    properties: { triggers: { k: \"${r.nope}\" } }\n");
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:6:"));
  EXPECT_THAT(Messages(), HasSubstr("nope"));
  EXPECT_EQ(diags_.ErrorCount(), 1u) << Messages();
}

TEST_F(EngineTest, ForEachOverAListIsAnError) {
  EvalMain("resources:\n  x:\n    type: null_resource\n    for_each: ${[\"a\"]}\n");
  EXPECT_THAT(Messages(), HasSubstr("for_each needs a map or a set of strings, got tuple. For a list, use toset(...)."));
}

TEST_F(EngineTest, ValidateChecksAnUnknownCountOnce) {
  auto e = EvalMain(
      "resources:\n"
      "  r: { type: random_id, properties: { byte_length: 2 } }\n"
      "  x: { type: null_resource, count: \"${length(r.hex)}\", properties: { triggers: { i: \"${count.index}\" } } }\n"
      "outputs:\n"
      "  ids: { value: \"${x[*].id}\" }\n");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(Messages(), "");
  ASSERT_EQ(Instances(*e, "x").size(), 1u);
  EXPECT_FALSE(Output(*e, "ids").IsWhollyKnown());
  diags_ = Diagnostics();
  EvalMain(
      "resources:\n"
      "  r: { type: random_id, properties: { byte_length: 2 } }\n"
      "  x: { type: null_resource, count: \"${length(r.hex)}\", properties: { triggers: { i: \"${each.key}\" } } }\n");
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:3:"));
  EXPECT_THAT(Messages(), HasSubstr("Reference to \"each\" in context without for_each"));
}

TEST_F(EngineTest, EachOutsideForEachIsAnError) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "resources:\n"
        "  x: { type: null_resource, properties: { triggers: { k: \"${each.key}\" } } }\n"
        "  y: { type: null_resource, count: 1, properties: { triggers: { k: \"${each.value}\" } } }\n"
        "  z: { type: null_resource, for_each: \"${toset([])}\", properties: { triggers: { k: \"${count.index}\" } } }\n"
        "outputs:\n"
        "  o: { value: \"${each.key}\" }\n");
  loaded_ = LoadStage();
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:61: Reference to \"each\" in context without for_each"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:3:71: Reference to \"each\" in context without for_each"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:87: Reference to \"count\" in non-counted context"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:6:18: Reference to \"each\" in context without for_each"));
  EXPECT_EQ(diags_.ErrorCount(), 4u) << out;
}

TEST_F(EngineTest, CycleListsTheChainWithPositions) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "resources:\n"
        "  a: { type: null_resource, properties: { triggers: { x: \"${b.triggers.x}\" } } }\n"
        "  b: { type: null_resource, depends_on: [c] }\n"
        "  c:\n"
        "    type: null_resource\n"
        "    depends_on: [a]\n");
  loaded_ = LoadStage();
  std::string p = Path("main/main.yaml");
  EXPECT_EQ(Messages(), "main/main.yaml:2:3: Dependency cycle: These objects depend on each other in a loop, so none can be "
                        "evaluated first:\n"
                        "  null_resource.a (" + p + ":2:3)\n    depends on\n"
                        "  null_resource.b (" + p + ":3:3)\n    depends on\n"
                        "  null_resource.c (" + p + ":4:3)\n    depends on\n"
                        "  null_resource.a (" + p + ":2:3)\n"
                        "Break the loop by removing one of these references.\n");
}

TEST_F(EngineTest, UndeclaredReferencesSuggest) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "variables:\n  region: { default: x }\n"
        "locals:\n  tags: {}\n"
        "resources:\n  vpc: { type: null_resource }\n"
        "data:\n  f: { type: local_file, properties: { filename: x } }\n"
        "outputs:\n"
        "  a: { value: \"${local.tag}\" }\n"
        "  b: { value: \"${vcp.id}\" }\n"
        "  c: { value: \"${f.content}\" }\n"
        "  d: { value: \"${module.nope.x}\" }\n");
  loaded_ = LoadStage();
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("main/main.yaml:10:18: Reference to undeclared local value: No local value named \"tag\" is declared "
                             "in this module. Did you mean \"local.tags\"?"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:11:18: Reference to undeclared resource: No resource named \"vcp\" is declared in "
                             "this module. Did you mean \"vpc\"?"));
  EXPECT_THAT(out, HasSubstr("No resource named \"f\" is declared in this module. A data source \"f\" exists: write data.f."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:13:18: Reference to undeclared module"));
}

// A mistyped provider is an error at its position, never a silent fallback to the default
// block (a resource meant for us-east-1 would land in us-west-2).
TEST_F(EngineTest, ProviderBlocksAndReferencesAreChecked) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "providers:\n"
        "  aws: { region: us-west-2, regin: x }\n"
        "  awz: { region: us-west-2 }\n"
        "  aws.east: { region: us-east-1 }\n"
        "resources:\n"
        "  a: { type: aws_vpc, provider: aws.west, properties: { cidr_block: 10.0.0.0/16 } }\n"
        "  b: { type: aws_vpc, provider: kubernetes, properties: { cidr_block: 10.0.0.0/16 } }\n"
        "  c: { type: aws_vpc, provider: \"aws.\", properties: { cidr_block: 10.0.0.0/16 } }\n");
  loaded_ = LoadStage();
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:29: Unsupported argument: The aws provider has no setting named \"regin\". "
                             "Did you mean \"region\"?"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:3:3: Unknown provider: There is no provider named \"awz\""));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:6:33: Provider configuration not present: aws_vpc.a names the provider "
                             "block \"aws.west\""));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:7:33: Invalid provider reference: aws_vpc.b is of type aws_vpc"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:8:33: Invalid provider reference: \"aws.\" is not a provider block name"));
  EXPECT_EQ(out.find("block \"aws.\""), std::string::npos) << "one error for a malformed reference";
}

TEST_F(EngineTest, AnAliasBlockConfiguresTheResourcesThatNameIt) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "providers:\n"
        "  aws: { region: us-west-2 }\n"
        "  aws.us_east_1: { region: us-east-1 }\n"
        "resources:\n"
        "  a: { type: aws_vpc, provider: aws.us_east_1, properties: { cidr_block: 10.0.0.0/16 } }\n"
        "  b: { type: aws_vpc, properties: { cidr_block: 10.1.0.0/16 } }\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(), "");
  const StageGraph& g = *loaded_->graph;
  NodeId a = g.modules[0].resources.at("a"), b = g.modules[0].resources.at("b");
  NodeId east = g.modules[0].providers.at("aws.us_east_1"), west = g.modules[0].providers.at("aws");
  auto depends = [&](NodeId from, NodeId to) {
    const auto& deps = g.dag.DependenciesOf(from);
    return std::find(deps.begin(), deps.end(), to) != deps.end();
  };
  EXPECT_TRUE(depends(a, east));
  EXPECT_FALSE(depends(a, west));
  EXPECT_TRUE(depends(b, west));
}

// A module call's providers: mapping serves the module's default aws block with the
// caller's alias, as Terraform's module providers argument; a mapping to no block is an error.
TEST_F(EngineTest, ModuleCallsMapTheirProvidersToTheCallersAliases) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "providers:\n"
        "  aws: { region: us-west-2 }\n"
        "  aws.us_east_1: { region: us-east-1 }\n"
        "modules:\n"
        "  certs: { source: ./certs, providers: { aws: aws.us_east_1 } }\n"
        "  plain: { source: ./certs }\n");
  Write("main/certs/main.yaml", "resources:\n  v: { type: aws_vpc, properties: { cidr_block: 10.0.0.0/16 } }\n");
  loaded_ = LoadStage();
  ASSERT_EQ(Messages(), "");
  const StageGraph& g = *loaded_->graph;
  NodeId east = g.modules[0].providers.at("aws.us_east_1"), west = g.modules[0].providers.at("aws");
  for (size_t m = 1; m < g.modules.size(); ++m) {
    NodeId v = g.modules[m].resources.at("v");
    const auto& deps = g.dag.DependenciesOf(v);
    bool mapped = g.modules[m].path.ToString() == "module.certs";
    EXPECT_EQ(std::find(deps.begin(), deps.end(), mapped ? east : west) != deps.end(), true) << g.modules[m].path.ToString();
    EXPECT_EQ(FindProviderBlock(g, m, "aws"), mapped ? east : west);
  }

  Write("main/main.yaml",
        "providers:\n  aws: { region: us-west-2 }\n"
        "modules:\n  certs: { source: ./certs, providers: { aws: aws.nowhere } }\n");
  loaded_ = LoadStage();
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:4:47: Provider configuration not present: The module \"certs\" is "
                                    "given the provider block \"aws.nowhere\""));
}

TEST_F(EngineTest, NestedModulesPassOutputsUp) {
  WriteSingleStageProject();
  Write("main/main.yaml",
        "modules:\n"
        "  outer: { source: ../modules/outer, inputs: { prefix: root } }\n"
        "outputs:\n"
        "  name: { value: \"${module.outer.name}\" }\n"
        "  all: { value: \"${module.outer}\" }\n");
  Write("modules/outer/outer.yaml",
        "variables:\n  prefix: { type: string }\n"
        "modules:\n"
        "  inner: { source: ../inner, inputs: { name: \"${var.prefix}-outer\" } }\n"
        "outputs:\n"
        "  name: { value: \"${module.inner.name}\" }\n");
  Write("modules/inner/inner.yaml",
        "variables:\n  name: { type: string }\n"
        "locals:\n  full: ${var.name}-inner\n"
        "outputs:\n"
        "  name: { value: \"${local.full}\" }\n");
  auto e = Evaluate();
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(Messages(), "");
  EXPECT_EQ(Output(*e, "name"), Value::String("root-outer-inner"));
  EXPECT_EQ(FormatValue(Output(*e, "all")), "{\n  name = \"root-outer-inner\"\n}");
  ASSERT_EQ(e->graph().modules.size(), 3u);
  EXPECT_EQ(e->graph().modules[2].path.ToString(), "module.outer.module.inner");
}

TEST_F(EngineTest, ModuleOutputThatDoesNotExist) {
  WriteSingleStageProject();
  Write("main/main.yaml", "modules:\n  m: { source: ../m }\noutputs:\n  o: { value: \"${module.m.nmae}\" }\n");
  Write("m/m.yaml", "outputs:\n  name: { value: 1 }\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(),
            "main/main.yaml:4:26: Unsupported attribute: The module \"m\" has no output named \"nmae\". Did you mean \"name\"?\n");
}

// ---- stages ---------------------------------------------------------------------------

class StageTest : public EngineTest {
 protected:
  void WriteStages(const std::string& a_yaml, const std::string& b_yaml) {
    Write("strata.yaml", "project: p\nstages:\n  - { name: first, path: a }\n  - { name: second, path: b }\n");
    Write("a/a.yaml", a_yaml);
    Write("b/b.yaml", b_yaml);
  }
  std::vector<std::string> Order() {
    project_ = engine_.OpenProject(root_.string(), diags_);
    return project_ ? engine_.StageOrder(*project_, diags_) : std::vector<std::string>{};
  }
};

TEST_F(StageTest, StageReferenceErrors) {
  WriteStages("outputs:\n  vpc_id: { value: v }\n",
              "outputs:\n"
              "  a: { value: \"${stage.frist.vpc_id}\" }\n"
              "  b: { value: \"${stage.first.vpcid}\" }\n"
              "  c: { value: \"${stage.second.x}\" }\n"
              "  d: { value: \"${stage.first}\" }\n"
              "  e: { value: \"${stage.first.vpc_id}\" }\n");
  loaded_ = LoadStage("second");
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("b/b.yaml:2:18: Reference to undeclared stage: The project has no stage named \"frist\". Did you mean "
                             "\"first\"?"));
  EXPECT_THAT(out, HasSubstr("b/b.yaml:3:29: Unsupported attribute: The stage \"first\" declares no output named \"vpcid\". Did "
                             "you mean \"vpc_id\"?"));
  EXPECT_THAT(out, HasSubstr("b/b.yaml:4:18: Stage refers to itself"));
  EXPECT_THAT(out, HasSubstr("b/b.yaml:5:18: Invalid reference: Name an output of the stage, as in stage.first.cluster_name."));
  EXPECT_EQ(diags_.ErrorCount(), 4u) << out;
  ASSERT_NE(loaded_->graph, nullptr);
  EXPECT_EQ(loaded_->graph->stage_dependencies, (std::vector<std::string>{"first"}));
}

TEST_F(StageTest, CrossStageValuesAreUnknownWithoutState) {
  WriteStages("outputs:\n  vpc_id: { value: v }\n", "outputs:\n  e: { value: \"${stage.first.vpc_id}\" }\n");
  auto e = Evaluate("second");
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_TRUE(Output(*e, "e").IsUnknown());
}

TEST_F(StageTest, CrossStageValuesComeFromTheOutputSource) {
  struct Source : StageOutputSource {
    std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override {
      if (stage == "first" && output == "vpc_id") return Value::String("vpc-123");
      error = "stage \"" + stage + "\" has not been applied";
      return std::nullopt;
    }
  } source;
  WriteStages("outputs:\n  vpc_id: { value: v }\n  other: { value: w }\n",
              "outputs:\n  e: { value: \"${stage.first.vpc_id}\" }\n  f: { value: \"${stage.first.other}\" }\n");
  EngineOptions options;
  options.stage_outputs = &source;
  auto e = Evaluate("second", options);
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(Output(*e, "e"), Value::String("vpc-123"));
  EXPECT_THAT(Messages(), HasSubstr("b/b.yaml:3:18: Cross-stage value not available: stage \"first\" has not been applied"));
}

TEST_F(StageTest, StageOrderFollowsReferences) {
  // second is listed last but first reads from it.
  WriteStages("outputs:\n  x: { value: \"${stage.second.y}\" }\n", "outputs:\n  y: { value: 1 }\n");
  EXPECT_EQ(Order(), (std::vector<std::string>{"second", "first"}));
  EXPECT_EQ(Messages(), "");
}

TEST_F(StageTest, StageOrderKeepsFileOrderOtherwise) {
  WriteStages("outputs:\n  x: { value: 1 }\n", "outputs:\n  y: { value: 2 }\n");
  EXPECT_EQ(Order(), (std::vector<std::string>{"first", "second"}));
}

TEST_F(StageTest, StageCycleIsAnError) {
  WriteStages("outputs:\n  x: { value: \"${stage.second.y}\" }\n", "outputs:\n  y: { value: \"${stage.first.x}\" }\n");
  EXPECT_TRUE(Order().empty());
  EXPECT_EQ(Messages(), "strata.yaml:3:5: Stages depend on each other: The stages read each other's outputs in a loop: first → "
                        "second → first.\n");
}

TEST_F(StageTest, ProjectGraphDot) {
  WriteStages("outputs:\n  x: { value: 1 }\n", "outputs:\n  y: { value: \"${stage.first.x}\" }\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  ASSERT_TRUE(project_.has_value());
  EXPECT_THAT(engine_.GraphDot(*project_, "", diags_), HasSubstr("  \"stage.second\" -> \"stage.first\"\n"));
  EXPECT_THAT(engine_.GraphDot(*project_, "second", diags_), HasSubstr("\"output.y\" [shape = \"box\"]"));
}

// ---- resource attributes --------------------------------------------------------------

TEST_F(EngineTest, ComputedAttributesAreUnknown) {
  auto e = EvalMain(
      "resources:\n"
      "  x: { type: random_id, properties: { byte_length: 4 } }\n"
      "outputs:\n"
      "  hex: { value: \"${x.hex}\" }\n"
      "  len: { value: \"${x.byte_length}\" }\n"
      "  prefix: { value: \"${x.prefix}\" }\n"
      "  tmpl: { value: \"id-${x.hex}\" }\n");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(Messages(), "");
  EXPECT_TRUE(Output(*e, "hex").IsUnknown());
  EXPECT_TRUE(Output(*e, "tmpl").IsUnknown());
  EXPECT_EQ(Output(*e, "len"), Value::Number(4));
  EXPECT_TRUE(Output(*e, "prefix").IsNull());
}

TEST_F(EngineTest, NonExistentAttributeIsAnError) {
  EvalMain(
      "resources:\n"
      "  x: { type: random_id, properties: { byte_length: 4 } }\n"
      "outputs:\n"
      "  h: { value: \"${x.hexx}\" }\n");
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:4:19: Unsupported attribute: This object does not have an attribute named "
                                    "\"hexx\". Did you mean \"hex\"?"));
}

TEST_F(EngineTest, AttributeTypeMismatchNamesTheAddress) {
  EvalMain("resources:\n  x: { type: random_id, properties: { byte_length: [1] } }\n");
  ASSERT_EQ(diags_.size(), 1u) << Messages();
  EXPECT_EQ(diags_.items()[0].summary, "Incorrect attribute value type");
  EXPECT_EQ(diags_.items()[0].address, "random_id.x");
  EXPECT_EQ(diags_.items()[0].subject.start.line, 2);
}

TEST_F(EngineTest, FailedNodeSkipsDependentsWithoutExtraErrors) {
  EvalMain(
      "locals:\n"
      "  a: ${1 / 0}\n"
      "  b: ${local.a + 1}\n"
      "outputs:\n"
      "  o: { value: \"${local.b}\" }\n");
  EXPECT_EQ(diags_.ErrorCount(), 1u) << Messages();
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:2:12: Division by zero"));
}

TEST_F(EngineTest, QuickstartExampleValidates) {
  std::string dir = std::string(STRATA_SOURCE_DIR) + "/examples/quickstart";
  auto project = engine_.OpenProject(dir, diags_);
  ASSERT_TRUE(project.has_value()) << Messages();
  EXPECT_EQ(engine_.StageOrder(*project, diags_), (std::vector<std::string>{"network", "platform"}));
  for (const auto& stage : {"network", "platform"}) {
    auto loaded = engine_.LoadStage(*project, stage, diags_);
    ASSERT_NE(loaded, nullptr);
    auto e = engine_.EvaluateStage(*project, *loaded, {}, diags_);
    EXPECT_NE(e, nullptr);
  }
  EXPECT_FALSE(diags_.HasErrors()) << Messages();
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The console evaluates expressions that the graph builder never checked.
TEST_F(EngineTest, ConsoleExpressionsAreCheckedAtEvaluation) {
  auto e = EvalMain("locals:\n  a: 1\n");
  ASSERT_NE(e, nullptr) << Messages();
  auto eval = [&](const std::string& text) {
    Diagnostics diags;
    ExprPtr expr = ParseExpression(text, SourceMapping{"console", 1, 1, 1}, diags);
    if (!expr) return std::string("parse error");
    Value v = e->EvaluateInModule(*expr, 0, diags);
    return diags.HasErrors() ? diags.items()[0].summary : FormatValue(v);
  };
  EXPECT_EQ(eval("local.a + 1"), "2");
  EXPECT_EQ(eval("local.b"), "Reference to undeclared name");
  EXPECT_EQ(eval("path"), "Invalid reference");
  EXPECT_EQ(eval("each.key"), "Reference to \"each\" in context without for_each");
  EXPECT_EQ(eval("count.index"), "Reference to \"count\" in non-counted context");
  EXPECT_EQ(eval("path.module"), FormatValue(Value::String(Path("main"))));
}

// ---- bounds on count / for_each and on -var-files -----------------------------------------

TEST_F(EngineTest, CountBeyondTheInstanceLimitIsAnError) {
  EvalMain("resources:\n  x: { type: null_resource, count: 1e12 }\n");
  EXPECT_EQ(Messages(),
            "main/main.yaml:2:36: Too many instances: count is 1000000000000, more than the 10000 instances a resource "
            "may have. If so many are meant, raise limits.max_instances in strata.yaml, as in limits: { max_instances: "
            "50000 }.\n");
  diags_ = Diagnostics();
  EvalMain("resources:\n  x: { type: null_resource, count: 1e400 }\n");
  // 1e400 is a number at Terraform's precision, not an infinity: the message says it.
  EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:2:36: Too many instances: count is 1" + std::string(400, '0') +
                                    ", more than the 10000"));
}

TEST_F(EngineTest, InstanceLimitComesFromStrataYaml) {
  Write("strata.yaml", "project: test\nlimits: { max_instances: 3 }\nstages:\n  - { name: main, path: main }\n");
  Write("main/main.yaml",
        "resources:\n"
        "  ok: { type: null_resource, count: 3 }\n"
        "  many: { type: null_resource, count: 4 }\n"
        "  keyed: { type: null_resource, for_each: \"${toset([\\\"a\\\", \\\"b\\\", \\\"c\\\", \\\"d\\\"])}\" }\n");
  Evaluate();
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("main/main.yaml:3:39: Too many instances: count is 4, more than the 3 instances a resource "
                             "may have (set at " + Path("strata.yaml") + ":2:26)."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:46: Too many instances: for_each has 4 elements, more than the 3"));
  EXPECT_EQ(diags_.ErrorCount(), 2u) << out;
}

TEST_F(EngineTest, CountMustBeAWholeNumber) {
  for (const char* count : {"-1", "1.5", "abc", "null", "[1]", "true"}) {
    diags_ = Diagnostics();
    EvalMain(std::string("resources:\n  x: { type: null_resource, count: ") + count + " }\n");
    EXPECT_THAT(Messages(), HasSubstr("main/main.yaml:2:36: Invalid count argument: count must be a whole number, zero or "
                                      "more."))
        << count;
  }
}

// Input just inside the nesting limit is evaluated on the walker's threads, through every
// recursive step (YAML nodes, expressions, values, JSON), without running out of stack.
TEST_F(EngineTest, ValuesAtTheNestingLimitEvaluate) {
  auto nested = [](int levels) { return std::string(levels, '[') + "1" + std::string(levels, ']'); };
  auto e = EvalMain("locals:\n"
                    "  yaml: " + nested(254) + "\n"  // under the file's mapping and locals:
                    "  expr: \"${" + nested(250) + "}\"\n"
                    "  json: \"" + nested(256) + "\"\n"
                    "outputs:\n"
                    "  yaml: { value: \"${jsonencode(local.yaml)}\" }\n"
                    "  expr: { value: \"${jsonencode(local.expr)}\" }\n"
                    "  json: { value: \"${jsonencode(jsondecode(local.json))}\" }\n");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(Messages(), "");
  EXPECT_EQ(Output(*e, "yaml"), Value::String(nested(254)));
  EXPECT_EQ(Output(*e, "expr"), Value::String(nested(250)));
  EXPECT_EQ(Output(*e, "json"), Value::String(nested(256)));
}

TEST_F(EngineTest, DuplicateKeysInAVarFileNameBothPositions) {
  EngineOptions options;
  options.variables.arguments = {Arg::File(Write("vars.yaml", "v: one\nm: { a: 1, a: 2 }\nv: two\n"))};
  EvalMain("variables:\n  v: { type: string }\n  m: { default: {} }\n", options);
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("vars.yaml:2:12: Duplicate key: The key \"a\" is already set at " + Path("vars.yaml") + ":2:6."));
  EXPECT_THAT(out, HasSubstr("vars.yaml:3:1: Duplicate key: The key \"v\" is already set at " + Path("vars.yaml") + ":1:1."));
}

TEST_F(EngineTest, BinaryVarFileIsRefusedWithoutItsBytes) {
  using namespace std::string_literals;
  EngineOptions options;
  options.variables.arguments = {Arg::File(Write("vars.bin", "v: \"\x01\x02secret\0\xff\"\n"s))};
  EvalMain(kPrecedenceModule, options);
  EXPECT_EQ(Messages(), "vars.bin:1:13: Not a text file: " + Path("vars.bin") +
                            " is not UTF-8 text: it holds a NUL byte at line 1, column 13. Module files, strata.yaml and "
                            "-var-files are YAML in UTF-8; check that the path names the file you meant.\n");
  EXPECT_THAT(Rendered(), ::testing::Not(HasSubstr("secret")));
}

TEST_F(EngineTest, VarFileAliasBombIsAnErrorNamingTheFile) {
  EngineOptions options;
  options.variables.arguments = {Arg::File(Write("vars.yaml", testing::BillionLaughsYaml()))};
  EvalMain(kPrecedenceModule, options);
  EXPECT_THAT(Messages(), HasSubstr("vars.yaml:"));
  EXPECT_THAT(Messages(), HasSubstr("YAML aliases expand too far: The document stands for more than 1000000 values"));
}

TEST_F(EngineTest, VarFileNumbersAreDecimal) {
  EngineOptions options;
  options.variables.arguments = {Arg::File(Write("vars.yaml", "v: nan\n"))};
  auto e = EvalMain(kPrecedenceModule, options);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(Output(*e, "v"), Value::String("nan"));
}

// yaml-cpp refused an anchor on a block scalar inside a list (- &x |); libyaml reads it.
TEST_F(EngineTest, AnchoredBlockScalarInAListLoads) {
  auto e = EvalMain(
      "locals:\n"
      "  items:\n"
      "    - &greeting |\n"
      "      hello ${upper(\"x\")}\n"
      "    - *greeting\n"
      "outputs:\n"
      "  v: { value: \"${local.items}\" }\n");
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(Messages(), "");
  EXPECT_EQ(FormatValue(Output(*e, "v")),
            FormatValue(Value::Tuple({Value::String("hello X"), Value::String("hello X")})));  // templates drop the final newline
}

// Module files type plain scalars by YAML 1.2's core schema; quoted ones stay strings.
TEST_F(EngineTest, ModuleScalarsAreTypedByTheCoreSchema) {
  auto e = EvalMain(
      "outputs:\n"
      "  v: { value: [yes, on, \"true\", True, null, \"null\", ~, '2', !!str 3, 1e3, 0x10, \"\"] }\n");
  ASSERT_NE(e, nullptr) << Messages();
  EXPECT_EQ(FormatValue(Output(*e, "v")),
            FormatValue(Value::Tuple({Value::String("yes"), Value::String("on"), Value::String("true"), Value::Bool(true),
                                      Value::Null(), Value::String("null"), Value::Null(), Value::String("2"),
                                      Value::String("3"), Value::Number(1000.0), Value::String("0x10"),
                                      Value::String("")})));
}

}  // namespace
}  // namespace strata
