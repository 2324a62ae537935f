#include "engine/config/loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/config/temp_project.h"
#include "tests/unit/config/yaml_bombs.h"

namespace strata {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class LoaderTest : public testing::TempProject {
 protected:
  // Writes main/main.yaml with `text` and loads the stage.
  std::string LoadMain(const std::string& text) {
    WriteSingleStageProject();
    Write("main/main.yaml", text);
    loaded_ = LoadStage();
    return Messages();
  }
};

TEST_F(LoaderTest, ValidModuleLoadsWithoutDiagnostics) {
  std::string out = LoadMain(
      "variables:\n"
      "  name: { type: string, default: demo }\n"
      "locals:\n"
      "  upper: ${upper(var.name)}\n"
      "resources:\n"
      "  id:\n"
      "    type: random_id\n"
      "    properties: { byte_length: 4, prefix: \"${local.upper}-\" }\n"
      "outputs:\n"
      "  hex: { value: \"${id.hex}\" }\n");
  EXPECT_EQ(out, "");
  ASSERT_NE(loaded_, nullptr);
  ASSERT_NE(loaded_->root, nullptr);
  EXPECT_EQ(loaded_->root->variables.size(), 1u);
  EXPECT_EQ(loaded_->root->resources.at("id").type, "random_id");
  EXPECT_EQ(loaded_->root->resources.at("id").range.ToString(), Path("main/main.yaml") + ":6:3");
}

TEST_F(LoaderTest, UnknownTopLevelKeySuggests) {
  std::string out = LoadMain("resource:\n  x: { type: null_resource }\n");
  EXPECT_EQ(out,
            "main/main.yaml:1:1: Unsupported argument: \"resource\" is not expected in a module file. Did you mean "
            "\"resources\"? Expected one of: variables, locals, providers, data, resources, modules, outputs, moved, "
            "removed, import.\n");
}

TEST_F(LoaderTest, UnknownKeyInsideAResourceSuggests) {
  std::string out = LoadMain("resources:\n  x:\n    type: null_resource\n    dependson: []\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:5: Unsupported argument: \"dependson\" is not expected in a resource. Did you "
                             "mean \"depends_on\"?"));
}

TEST_F(LoaderTest, TimeoutsAreKeptAsWritten) {
  std::string out = LoadMain(
      "resources:\n"
      "  x:\n"
      "    type: null_resource\n"
      "    timeouts: { create: 30m, update: \"1h30m\", delete: 2.5h, read: 500ms }\n");
  EXPECT_EQ(out, "");
  ASSERT_NE(loaded_, nullptr);
  const TimeoutsConfig& t = loaded_->root->resources.at("x").timeouts;
  EXPECT_EQ(t.durations, (std::map<std::string, std::string>{
                             {"create", "30m"}, {"update", "1h30m"}, {"delete", "2.5h"}, {"read", "500ms"}}));
  EXPECT_EQ(t.range.ToString(), Path("main/main.yaml") + ":4:15");
}

TEST_F(LoaderTest, TimeoutsErrorsSayWhatIsAccepted) {
  std::string out = LoadMain(
      "resources:\n"
      "  x:\n"
      "    type: null_resource\n"
      "    timeouts:\n"
      "      creat: 5m\n"
      "      update: 30\n"
      "      delete: [1m]\n"
      "      read: 1d\n"
      "  y:\n"
      "    type: null_resource\n"
      "    timeouts: { create: \"${var.t}\", delete: \"-5m\", update: ~ }\n"
      "  z:\n"
      "    type: null_resource\n"
      "    timeouts: 30m\n"
      "data:\n"
      "  d:\n"
      "    type: local_file\n"
      "    properties: { filename: x }\n"
      "    timeouts: { read: 5m }\n");
  std::string file = "main/main.yaml";
  EXPECT_EQ(out,
            file + ":5:7: Unsupported argument: \"creat\" is not expected in timeouts. Did you mean \"create\"? Expected one "
                   "of: create, read, update, delete.\n" +
                file + ":6:15: Invalid timeout: timeouts.update is \"30\", which is not a duration (time: missing unit in "
                       "duration \"30\"). Write a number with a unit (ns, us, ms, s, m, h), such as \"90s\", \"30m\", "
                       "\"1h30m\" or \"2.5h\".\n" +
                file + ":7:15: Invalid timeout: timeouts.delete must be a duration string, such as \"90s\", \"30m\", "
                       "\"1h30m\" or \"2.5h\".\n" +
                file + ":8:13: Invalid timeout: timeouts.read is \"1d\", which is not a duration (time: unknown unit \"d\" "
                       "in duration \"1d\"). Write a number with a unit (ns, us, ms, s, m, h), such as \"90s\", \"30m\", "
                       "\"1h30m\" or \"2.5h\".\n" +
                file + ":11:25: Invalid timeout: timeouts.create is \"${var.t}\": timeouts take a literal duration, not an "
                       "expression, such as \"90s\", \"30m\", \"1h30m\" or \"2.5h\".\n" +
                file + ":11:45: Invalid timeout: timeouts.delete is \"-5m\": a timeout must be longer than zero.\n" +
                file + ":14:15: Invalid timeouts: timeouts must be a mapping of operations to durations, such as { create: "
                       "\"30m\", delete: \"1h\" }.\n" +
                file + ":19:5: Timeouts on a data source: Data sources take no timeouts in Strata: each is read within its "
                       "provider's own limits. Remove timeouts from data source \"d\"; resources accept them.\n");
  EXPECT_TRUE(loaded_->root->resources.at("y").timeouts.durations.empty());
}

TEST_F(LoaderTest, WrongTypes) {
  std::string out = LoadMain(
      "variables:\n"
      "  a: { type: string, sensitive: maybe }\n"
      "  b: { type: lst(string) }\n"
      "  c: [1, 2]\n"
      "resources:\n"
      "  x: { type: null_resource, properties: [1] }\n"
      "  y: { type: [a, b] }\n"
      "outputs:\n"
      "  o: { value: 1, description: { a: 1 } }\n"
      "locals: [1]\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:33: Invalid value: sensitive must be true or false."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:3:14: Invalid type constraint: unknown type \"lst\""));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:6: Invalid declaration: Variable \"c\" must be a mapping."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:6:41: Invalid properties: properties must be a mapping"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:7:14: Invalid value: type must be a string."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:9:31: Invalid value: description must be a string."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:10:9: Invalid section: \"locals\" must be a mapping"));
}

TEST_F(LoaderTest, InvalidName) {
  std::string out = LoadMain("locals:\n  9lives: 1\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:3: Invalid name: \"9lives\" is not a valid name"));
}

TEST_F(LoaderTest, DuplicateNamesAcrossFilesNameTheFirstPosition) {
  WriteSingleStageProject();
  Write("main/a.yaml", "locals:\n  region: us-east-1\nresources:\n  box: { type: null_resource }\n");
  Write("main/b.yaml", "locals:\n  other: 1\n  region: eu-west-1\nresources:\n  box: { type: null_resource }\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(),
            "main/b.yaml:3:3: Duplicate local value: A local value named \"region\" is already declared at " +
                Path("main/a.yaml") +
                ":2:3. Names must be unique within a module, across all of its files.\n"
                "main/b.yaml:5:3: Duplicate resource: A resource named \"box\" is already declared at " +
                Path("main/a.yaml") + ":4:3. Names must be unique within a module, across all of its files.\n");
}

TEST_F(LoaderTest, DuplicateKeyInOneMapping) {
  std::string out = LoadMain("locals:\n  tags:\n    a: 1\n    a: 2\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:5: Duplicate key: The key \"a\" is already set at " + Path("main/main.yaml") + ":3:5."));
}

TEST_F(LoaderTest, MissingRequiredModuleInput) {
  WriteSingleStageProject();
  Write("modules/net/net.yaml", "variables:\n  cidr: { type: string }\n  name: { default: x }\noutputs:\n  cidr: { value: \"${var.cidr}\" }\n");
  Write("main/main.yaml", "modules:\n  net:\n    source: ../modules/net\n    inputs: { name: y }\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(), "main/main.yaml:2:3: Missing required argument: The module \"net\" needs the input \"cidr\" (declared at " +
                            Path("modules/net/net.yaml") + ":2:3), which has no default.\n");
}

TEST_F(LoaderTest, ModuleInputThatIsNotAVariable) {
  WriteSingleStageProject();
  Write("modules/net/net.yaml", "variables:\n  cidr: { type: string, default: 10.0.0.0/16 }\n");
  Write("main/main.yaml", "modules:\n  net:\n    source: ../modules/net\n    inputs:\n      cdir: 10.1.0.0/16\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(),
            "main/main.yaml:5:7: Unsupported argument: The module \"net\" has no variable named \"cdir\". Did you mean \"cidr\"?\n");
}

TEST_F(LoaderTest, ModuleSourceMustBeALocalDirectory) {
  std::string out = LoadMain(
      "modules:\n"
      "  a: { source: github.com/x/y }\n"
      "  b: { source: ./nowhere }\n"
      "  c: { inputs: {} }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:16: Invalid module source: \"github.com/x/y\" is not a local path."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:3:16: Module directory not found: There is no directory " + Path("main/nowhere") + "."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:3: Missing module source:"));
}

TEST_F(LoaderTest, UnknownResourceTypeSuggests) {
  std::string out = LoadMain("resources:\n  r: { type: random_ids }\ndata:\n  f: { type: local_fil }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:14: Unknown resource type: No provider offers a resource type named "
                             "\"random_ids\". Did you mean \"random_id\"?"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:14: Unknown data source type: No provider offers a data source type named "
                             "\"local_fil\". Did you mean \"local_file\"?"));
}

TEST_F(LoaderTest, UnsupportedResourceArgumentSuggests) {
  std::string out = LoadMain("resources:\n  r:\n    type: random_id\n    properties:\n      byte_length: 4\n      prefx: a\n");
  EXPECT_EQ(out,
            "main/main.yaml:6:7: Unsupported argument: An argument named \"prefx\" is not expected in resource \"r\" of "
            "type random_id. Did you mean \"prefix\"?\n");
}

TEST_F(LoaderTest, ComputedAttributeCannotBeSet) {
  std::string out = LoadMain("resources:\n  r:\n    type: random_id\n    properties: { byte_length: 4, hex: abc }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:35: Invalid argument: \"hex\" is set by the provider"));
}

TEST_F(LoaderTest, MissingRequiredArgument) {
  std::string out = LoadMain("resources:\n  r:\n    type: random_id\n    properties: { prefix: a }\n");
  EXPECT_EQ(out,
            "main/main.yaml:2:3: Missing required argument: The resource \"r\" of type random_id needs the argument "
            "\"byte_length\".\n");
}

TEST_F(LoaderTest, MissingResourceType) {
  std::string out = LoadMain("resources:\n  r: { properties: {} }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:3: Missing resource type:"));
}

TEST_F(LoaderTest, YamlSyntaxErrorHasPositionAndQuotingHint) {
  std::string out = LoadMain(
      "locals:\n"
      "  names: ${[for s in var.list: upper(s)]}\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:"));
  EXPECT_THAT(out, HasSubstr("Invalid YAML: "));
  EXPECT_THAT(out, HasSubstr("must be quoted in YAML: write \"${...}\""));
}

TEST_F(LoaderTest, YamlSyntaxErrorWithoutExpressionHasNoHint) {
  std::string out = LoadMain("locals:\n  a: [1, 2\n");
  EXPECT_THAT(out, HasSubstr("Invalid YAML: "));
  EXPECT_THAT(out, Not(HasSubstr("must be quoted")));
}

TEST_F(LoaderTest, YamlTabIndentationSaysToUseSpaces) {
  std::string out = LoadMain("locals:\n\ta: 1\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:1: Invalid YAML: "));
  EXPECT_THAT(out, HasSubstr("YAML indents with spaces, not tabs: replace the tab with spaces."));
}

TEST_F(LoaderTest, UnterminatedQuotedStringIsAYamlError) {
  // yaml-cpp took the rest of the file as the string.
  std::string out = LoadMain("locals:\n  a: \"abc\n  b: 1\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:1: Invalid YAML: Found unexpected end of stream"));
}

TEST_F(LoaderTest, AliasWithoutAnchorNamesIt) {
  std::string out = LoadMain("locals:\n  a: *nope\n");
  EXPECT_EQ(out, "main/main.yaml:2:6: Invalid YAML: The alias *nope names no anchor (&nope) written before it in this "
                 "document.\n");
}

TEST_F(LoaderTest, PositionsCountBytesAfterNonAsciiText) {
  // Columns count bytes (é is two), as the source excerpts and every other position do.
  std::string out = LoadMain("locals:\n  a: { ü: \"${var.nope}\" }\n  # ünïcödé\n  b: \"${var.other}\"\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:15: Reference to undeclared input variable"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:9: Reference to undeclared input variable"));
}

TEST_F(LoaderTest, EmptyValueIsPlacedAtTheNextToken) {
  std::string out = LoadMain("variables:\n  x:\n    type:\n    # a comment\n\n    default: 1\n");
  EXPECT_EQ(out, "main/main.yaml:6:5: Invalid value: type must be a string.\n");
}

TEST_F(LoaderTest, ExpressionErrorPositionIsInTheFile) {
  std::string out = LoadMain(
      "locals:\n"
      "  a: \"${1 +}\"\n"
      "  b: |\n"
      "    line one\n"
      "    ${upper(}\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:12: Invalid expression: Expected the start of an expression, but found \"}\"."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:5:13: Invalid expression:"));
}

TEST_F(LoaderTest, ModuleThatCallsItself) {
  WriteSingleStageProject();
  Write("main/main.yaml", "modules:\n  a: { source: ../modules/a }\n");
  Write("modules/a/a.yaml", "modules:\n  b: { source: ../b }\n");
  Write("modules/b/b.yaml", "modules:\n  a:\n    source: ../a\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(), "modules/b/b.yaml:3:13: Module calls itself: The module in " + Path("modules/a") +
                            " calls itself, directly or through other modules.\n");
}

TEST_F(LoaderTest, ModuleUsedTwiceIsNotARecursion) {
  WriteSingleStageProject();
  Write("main/main.yaml", "modules:\n  a: { source: ../modules/leaf }\n  b: { source: ../modules/leaf }\n");
  Write("modules/leaf/leaf.yaml", "outputs:\n  x: { value: 1 }\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(), "");
}

TEST_F(LoaderTest, CountAndForEachTogether) {
  std::string out = LoadMain(
      "resources:\n"
      "  r:\n"
      "    type: null_resource\n"
      "    count: 2\n"
      "    for_each: ${toset([\"a\"])}\n");
  EXPECT_EQ(out, "main/main.yaml:5:15: Invalid combination of count and for_each: count and for_each cannot both be set: "
                 "use one way of making several instances.\n");
}

TEST_F(LoaderTest, InvalidDependsOn) {
  std::string out = LoadMain(
      "resources:\n"
      "  a: { type: null_resource }\n"
      "  b: { type: null_resource, depends_on: [\"${1 + 1}\"] }\n"
      "  c: { type: null_resource, depends_on: a }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:3:42: Invalid depends_on: \"${1 + 1}\" is not a reference"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:41: Invalid depends_on: depends_on must be a list"));
}

TEST_F(LoaderTest, ValidationRuleNeedsConditionAndMessage) {
  std::string out = LoadMain(
      "variables:\n"
      "  v:\n"
      "    validation:\n"
      "      - { condition: true }\n"
      "      - { message: m }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:9: Missing validation message:"));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:5:9: Missing validation condition:"));
}

TEST_F(LoaderTest, SeveralDocumentsInOneFile) {
  std::string out = LoadMain("locals: { a: 1 }\n---\nlocals: { b: 2 }\n");
  EXPECT_THAT(out, HasSubstr("Several YAML documents in one file"));
}

// A Kubernetes manifest dropped beside the module files: one error that says so, at the
// file's first line, instead of an "is not expected" for each of its keys.
constexpr const char* kManifestError =
    "main/sa.yaml:1:1: Kubernetes manifest among module files: This looks like a Kubernetes manifest (apiVersion/kind), "
    "not a Strata module file; put manifests in a subdirectory such as manifests/ and read them with "
    "kubernetes_documents(...).\n";

TEST_F(LoaderTest, KubernetesManifestAmongModuleFilesSaysSo) {
  WriteSingleStageProject();
  Write("main/main.yaml", "locals: { a: 1 }\n");
  Write("main/sa.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: cluster-autoscaler\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(), kManifestError);
}

TEST_F(LoaderTest, MultiDocumentKubernetesManifestAmongModuleFilesSaysSo) {
  WriteSingleStageProject();
  Write("main/main.yaml", "locals: { a: 1 }\n");
  Write("main/sa.yaml",
        "# the autoscaler\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n---\napiVersion: apps/v1\n"
        "kind: Deployment\nmetadata: {name: a}\n");
  loaded_ = LoadStage();
  EXPECT_EQ(Messages(), kManifestError);
}

TEST_F(LoaderTest, ModuleFileWithOnlyAStrayKindKeepsItsMessage) {
  // apiVersion and kind together make a manifest; one of them alone is a mistyped module file.
  std::string out = LoadMain("kind: x\nlocals: { a: 1 }\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:1:1: Unsupported argument: \"kind\" is not expected in a module file."));
  EXPECT_THAT(out, Not(HasSubstr("Kubernetes")));
}

TEST_F(LoaderTest, AllErrorsAreReportedTogether) {
  WriteSingleStageProject();
  Write("main/a.yaml",
        "resource: {}\n"
        "resources:\n"
        "  r: { type: random_ids }\n"
        "  s: { type: random_id, properties: { prefx: a } }\n");
  Write("main/b.yaml", "locals:\n  x: ${var.nope}\n");
  Write("main/c.yaml", "locals: [\n");
  loaded_ = LoadStage();
  EXPECT_GE(diags_.ErrorCount(), 6u) << Messages();
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("main/a.yaml:1:1: Unsupported argument"));
  EXPECT_THAT(out, HasSubstr("main/a.yaml:3:14: Unknown resource type"));
  EXPECT_THAT(out, HasSubstr("main/a.yaml:4:39: Unsupported argument"));
  EXPECT_THAT(out, HasSubstr("main/a.yaml:4:3: Missing required argument"));
  EXPECT_THAT(out, HasSubstr("main/b.yaml:2:8: Reference to undeclared input variable"));
  EXPECT_THAT(out, HasSubstr("main/c.yaml:2:1: Invalid YAML"));
}

TEST_F(LoaderTest, EmptyModuleDirectory) {
  WriteSingleStageProject();
  std::filesystem::create_directories(root_ / "main");
  loaded_ = LoadStage();
  EXPECT_THAT(Messages(), HasSubstr("Empty module: The directory " + Path("main") + " holds no *.yaml files."));
}

TEST_F(LoaderTest, ScalarsKeepTheirYamlTypes) {
  std::string out = LoadMain(
      "locals:\n"
      "  n: 42\n"
      "  s: \"42\"\n"
      "  b: true\n"
      "  q: 'true'\n"
      "  z: ~\n");
  ASSERT_EQ(out, "");
  const auto& locals = loaded_->root->locals;
  EXPECT_TRUE(locals.at("n").value->AsLiteral()->IsNumber());
  EXPECT_TRUE(locals.at("s").value->AsLiteral()->IsString());
  EXPECT_TRUE(locals.at("b").value->AsLiteral()->IsBool());
  EXPECT_TRUE(locals.at("q").value->AsLiteral()->IsString());
  EXPECT_TRUE(locals.at("z").value->AsLiteral()->IsNull());
}

// ---- strata.yaml ----------------------------------------------------------------------

TEST_F(LoaderTest, ProjectFileProblems) {
  Write("strata.yaml",
        "project: p\n"
        "stage: []\n"
        "state: { backend: consul }\n"
        "stages:\n"
        "  - { name: a, path: missing }\n"
        "  - { name: a, path: missing }\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("strata.yaml:2:1: Unsupported argument: \"stage\" is not expected in strata.yaml. Did you mean \"state\"?"));
  EXPECT_THAT(out, HasSubstr("strata.yaml:3:19: Unsupported state backend"));
  EXPECT_THAT(out, HasSubstr("strata.yaml:5:22: Stage directory not found"));
  EXPECT_THAT(out, HasSubstr("strata.yaml:6:5: Duplicate stage: A stage named \"a\" is already declared at " + Path("strata.yaml") + ":5:5."));
}

TEST_F(LoaderTest, PostgresStateSettings) {
  Write("strata.yaml",
        "project: p\n"
        "state: { backend: postgres, url: \"postgres://ci@db/state?sslmode=verify-full\", schema: team_a }\n"
        "stages: []\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  ASSERT_EQ(Messages(), "");
  EXPECT_EQ(project_->state.backend, "postgres");
  EXPECT_TRUE(project_->state.backend_given);
  EXPECT_EQ(project_->state.url, "postgres://ci@db/state?sslmode=verify-full");
  EXPECT_EQ(project_->state.schema, "team_a");

  Write("strata.yaml",
        "project: p\n"
        "state:\n"
        "  backend: postgres\n"
        "  schema: Team-A\n"
        "  path: .strata/state.db\n"
        "stages: []\n");
  diags_ = Diagnostics();
  project_ = engine_.OpenProject(root_.string(), diags_);
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("strata.yaml:4:11: Invalid PostgreSQL schema"));
  EXPECT_THAT(out, HasSubstr("strata.yaml:5:9: Setting of another backend: state.path is the SQLite file"));

  Write("strata.yaml", "project: p\nstate: { backend: sqlite, url: \"host=db\" }\nstages: []\n");
  diags_ = Diagnostics();
  project_ = engine_.OpenProject(root_.string(), diags_);
  EXPECT_THAT(Messages(), HasSubstr("strata.yaml:2:32: Setting of another backend: state.url is a setting of the postgres backend"));
}

TEST_F(LoaderTest, StateRetryTimeout) {
  Write("strata.yaml", "project: p\nstate: { backend: postgres, retry_timeout: 90s }\nstages: []\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  ASSERT_EQ(Messages(), "");
  EXPECT_EQ(project_->state.retry_timeout, std::chrono::milliseconds(90000));

  Write("strata.yaml", "project: p\nstate: { retry_timeout: soon }\nstages: []\n");
  diags_ = Diagnostics();
  project_ = engine_.OpenProject(root_.string(), diags_);
  EXPECT_THAT(Messages(), HasSubstr("strata.yaml:2:25: Invalid value: retry_timeout \"soon\" is not a duration"));
}

TEST_F(LoaderTest, MissingProjectFile) {
  project_ = engine_.OpenProject(root_.string(), diags_);
  EXPECT_FALSE(project_.has_value());
  EXPECT_THAT(Messages(), HasSubstr("No project file"));
}

TEST_F(LoaderTest, UnknownStageSuggests) {
  WriteSingleStageProject();
  Write("main/main.yaml", "locals: { a: 1 }\n");
  loaded_ = LoadStage("mian");
  EXPECT_THAT(Messages(), HasSubstr("The project has no stage named \"mian\". Did you mean \"main\"? Its stages are: main."));
}

// ---- hostile input --------------------------------------------------------------------

TEST_F(LoaderTest, DeepYamlNestingIsAnErrorWithItsPosition) {
  std::string text = "locals:\n  a:\n";
  for (int i = 0; i < 300; ++i) text += std::string(4 + 2 * i, ' ') + "k:\n";
  std::string out = LoadMain(text + std::string(604, ' ') + "leaf\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:257:513: YAML nested too deeply: Mappings and lists nest more than 256 "
                             "levels deep here (or an anchor is used inside itself, as in &a [*a]); flatten the "
                             "structure.\n"));
  // Past yaml-cpp's own guard (500 levels): the same message, not yaml-cpp's "bad file".
  diags_ = Diagnostics();
  out = LoadMain("locals:\n  a: " + std::string(20000, '[') + std::string(20000, ']') + "\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:"));
  EXPECT_THAT(out, HasSubstr("YAML nested too deeply: Mappings and lists nest more than 256 levels deep"));
  EXPECT_THAT(out, Not(HasSubstr("bad file")));
}

TEST_F(LoaderTest, AnchorUsedInsideItselfIsAnErrorNotACrash) {
  std::string out = LoadMain("locals:\n  a: &loop [1, *loop]\n");
  EXPECT_THAT(out, HasSubstr("main/main.yaml:2:"));
  EXPECT_THAT(out, HasSubstr("YAML nested too deeply: "));
}

TEST_F(LoaderTest, YamlAliasBombIsAnErrorNamingTheFile) {
  std::string out = LoadMain("locals:\n" + testing::BillionLaughsYaml("  "));
  // At the alias that crosses the bound: the eighth *e of f.
  EXPECT_THAT(out, HasSubstr("main/main.yaml:7:38:"));
  EXPECT_THAT(out, HasSubstr("YAML aliases expand too far: The document stands for more than 1000000 values once its "
                             "aliases (*name) are expanded; use fewer or smaller aliases.\n"));
}

TEST_F(LoaderTest, YamlAliasesWithinTheBoundWork) {
  std::string out = LoadMain("locals:\n  base: &tags { team: ml }\n  copy: *tags\n");
  EXPECT_EQ(out, "");
}

TEST_F(LoaderTest, BinaryModuleFileIsRefusedWithoutItsBytes) {
  using namespace std::string_literals;
  std::string out = LoadMain("locals:\n  a: 1\n  b: \"x\0secret\"\n"s);
  EXPECT_EQ(out, "main/main.yaml:3:8: Not a text file: " + Path("main/main.yaml") +
                     " is not UTF-8 text: it holds a NUL byte at line 3, column 8. Module files, strata.yaml and "
                     "-var-files are YAML in UTF-8; check that the path names the file you meant.\n");
  EXPECT_THAT(Rendered(), Not(HasSubstr("secret")));
  diags_ = Diagnostics();
  out = LoadMain("\xff\xfel\0o\0c\0"s);  // UTF-16, as some editors save
  EXPECT_THAT(out, HasSubstr("main/main.yaml:1:1: Not a text file: "));
  EXPECT_THAT(out, HasSubstr("holds a byte that is not valid UTF-8 at line 1, column 1."));
}

TEST_F(LoaderTest, LimitsSettings) {
  Write("strata.yaml", "project: p\nlimits: { max_instances: 0, max_nodes: 3 }\nstages: []\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("strata.yaml:2:26: Invalid value: max_instances must be a number from 1 to 1000000."));
  EXPECT_THAT(out, HasSubstr("strata.yaml:2:29: Unsupported argument: \"max_nodes\" is not expected in the limits settings."));
  diags_ = Diagnostics();
  Write("strata.yaml", "project: p\nlimits: { max_instances: 50000 }\nstages: []\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  EXPECT_EQ(Messages(), "");
  ASSERT_TRUE(project_.has_value());
  EXPECT_EQ(project_->limits.max_instances, 50000);
  EXPECT_EQ(project_->limits.max_instances_range.ToString(), Path("strata.yaml") + ":2:26");
  diags_ = Diagnostics();
  Write("strata.yaml", "project: p\nstages: []\n");
  project_ = engine_.OpenProject(root_.string(), diags_);
  ASSERT_TRUE(project_.has_value());
  EXPECT_EQ(project_->limits.max_instances, 10000);
}

TEST_F(LoaderTest, DuplicateKeysInDeclarationsNameBothPositions) {
  WriteSingleStageProject();
  Write("child/main.yaml", "variables:\n  a: {}\n");
  Write("main/main.yaml",
        "resources:\n"
        "  x:\n"
        "    type: null_resource\n"
        "    type: random_id\n"
        "modules:\n"
        "  m: { source: ../child, inputs: { a: 1, a: 2 } }\n");
  loaded_ = LoadStage();
  std::string out = Messages();
  EXPECT_THAT(out, HasSubstr("main/main.yaml:4:5: Duplicate key: The key \"type\" is already set at " +
                             Path("main/main.yaml") + ":3:5."));
  EXPECT_THAT(out, HasSubstr("main/main.yaml:6:42: Duplicate key: The key \"a\" is already set at " +
                             Path("main/main.yaml") + ":6:36."));
}

}  // namespace
}  // namespace strata
