// strata.yaml's own rules: stage names follow the naming rule of every other name, and
// stage directories and module sources stay inside the project (the directory of
// strata.yaml) unless `allow_paths_outside_project: true` says otherwise.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/config/temp_project.h"

namespace strata {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The project lives in proj/; elsewhere/ is beside it, outside.
class ProjectTest : public testing::TempProject {
 protected:
  std::string Load(const std::string& strata_yaml, const std::string& stage = "main") {
    Write("proj/strata.yaml", strata_yaml);
    project_ = engine_.OpenProject(Path("proj"), diags_);
    if (project_ && !diags_.HasErrors() && project_->FindStage(stage)) loaded_ = engine_.LoadStage(*project_, stage, diags_);
    return Messages();
  }
  void WriteModule(const std::string& dir) { Write(dir + "/main.yaml", "outputs:\n  x: { value: 1 }\n"); }
  void Symlink(const std::string& target, const std::string& link) {
    std::filesystem::create_directory_symlink(target, root_ / link);
  }
};

TEST_F(ProjectTest, NonAsciiStageNamesAreInvalidNamesLikeAnyOther) {
  std::string out = Load("project: p\nstages:\n  - { name: ステージ, path: a }\n  - { name: éks, path: b }\n"
                         "  - { name: 1st, path: c }\n  - { name: ok-name_2, path: d }\n");
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:3:13: Invalid name: \"ステージ\" is not a valid name: use letters, "
                             "digits, underscores and dashes, starting with a letter or underscore."));
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:4:13: Invalid name: \"éks\" is not a valid name"));
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:5:13: Invalid name: \"1st\" is not a valid name"));
  EXPECT_THAT(out, Not(HasSubstr("ok-name_2\" is not")));
}

TEST_F(ProjectTest, TheSameErrorAsForADeclarationName) {
  Write("proj/main/main.yaml", "variables:\n  éks: { type: string }\n");
  std::string out = Load("project: p\nstages:\n  - { name: main, path: main }\n");
  EXPECT_THAT(out, HasSubstr("proj/main/main.yaml:2:3: Invalid name: \"éks\" is not a valid name: use letters, "
                             "digits, underscores and dashes, starting with a letter or underscore."));
}

// The sandbox block's delays and seeds are read (each service's delay, the zones and
// certificates the account holds); a negative delay, a seed that is not a list, and an
// unknown key are errors at their position.
TEST_F(ProjectTest, SandboxSettingsAreReadAndChecked) {
  WriteModule("proj/main");
  std::string out = Load(
      "project: p\n"
      "sandbox: { enabled: true, cognito_domain_delay_ms: 250, efs_delay_ms: 100, fsx_delay_ms: 300,\n"
      "  route53_change_delay_ms: 50, load_balancer_delay_ms: 75, seed_hosted_zones: [example.com],\n"
      "  seed_certificates: [\"*.example.com\"] }\n"
      "stages:\n  - { name: main, path: main }\n");
  ASSERT_EQ(out, "");
  const auto& s = project_->sandbox;
  EXPECT_EQ(s.cognito_domain_delay_ms, 250);
  EXPECT_EQ(s.efs_delay_ms, 100);
  EXPECT_EQ(s.fsx_delay_ms, 300);
  EXPECT_EQ(s.route53_change_delay_ms, 50);
  EXPECT_EQ(s.load_balancer_delay_ms, 75);
  EXPECT_EQ(s.seed_hosted_zones, std::vector<std::string>{"example.com"});
  EXPECT_EQ(s.seed_certificates, std::vector<std::string>{"*.example.com"});

  diags_ = Diagnostics();
  out = Load("project: p\nsandbox: { cognito_domain_delay_ms: -3, seed_hosted_zones: example.com, cognito_delay: 1 }\n"
             "stages:\n  - { name: main, path: main }\n");
  EXPECT_THAT(out, HasSubstr("cognito_domain_delay_ms"));
  EXPECT_THAT(out, HasSubstr("seed_hosted_zones must be a list"));
  EXPECT_THAT(out, HasSubstr("cognito_delay"));
}

TEST_F(ProjectTest, StageDirectoriesOutsideTheProjectAreRefused) {
  WriteModule("elsewhere");
  WriteModule("proj/inside");
  Symlink("../elsewhere", "proj/escape");  // a symlink inside, pointing out
  Symlink("inside", "proj/alias");         // a symlink that stays inside is fine
  std::string out = Load("project: p\nstages:\n"
                         "  - { name: up, path: ../elsewhere }\n"
                         "  - { name: abs, path: " + Path("elsewhere") + " }\n"
                         "  - { name: link, path: escape }\n"
                         "  - { name: alias, path: alias }\n"
                         "  - { name: main, path: inside }\n");
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:3:23: Stage directory outside the project: The stage \"up\" points at "
                             "../elsewhere, which is " + Path("elsewhere") + ", outside the project. Stage directories "
                             "and modules must be inside the project (the directory of strata.yaml): move it in, or set "
                             "allow_paths_outside_project: true in strata.yaml to allow paths outside."));
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:4:24: Stage directory outside the project: The stage \"abs\" points at " +
                             Path("elsewhere") + ", outside the project."));
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:5:25: Stage directory outside the project: The stage \"link\" points "
                             "at escape, which is " + Path("elsewhere") + ", outside the project."));
  EXPECT_THAT(out, Not(HasSubstr("\"alias\"")));
  EXPECT_THAT(out, Not(HasSubstr("\"main\"")));
}

TEST_F(ProjectTest, ModuleSourcesOutsideTheProjectAreRefused) {
  WriteModule("elsewhere/mod");
  WriteModule("proj/modules/local");
  Symlink("../../elsewhere/mod", "proj/modules/escape");
  Write("proj/main/main.yaml",
        "modules:\n"
        "  up: { source: ../../elsewhere/mod }\n"
        "  abs: { source: " + Path("elsewhere/mod") + " }\n"
        "  link: { source: ../modules/escape }\n"
        "  local: { source: ../modules/local }\n");
  std::string out = Load("project: p\nstages:\n  - { name: main, path: main }\n");
  EXPECT_THAT(out, HasSubstr("proj/main/main.yaml:2:17: Module source outside the project: The module call \"up\" has "
                             "source ../../elsewhere/mod, which is " + Path("elsewhere/mod") + ", outside the project. "
                             "Stage directories and modules must be inside the project"));
  EXPECT_THAT(out, HasSubstr("proj/main/main.yaml:3:18: Module source outside the project: The module call \"abs\""));
  EXPECT_THAT(out, HasSubstr("proj/main/main.yaml:4:19: Module source outside the project: The module call \"link\" "
                             "has source ../modules/escape, which is " + Path("elsewhere/mod") + ", outside the "
                             "project."));
  EXPECT_THAT(out, Not(HasSubstr("\"local\"")));
}

TEST_F(ProjectTest, ANestedCallLeavingTheProjectIsReportedWhereItIsWritten) {
  Write("proj/modules/outer/main.yaml", "modules:\n  inner: { source: ../../../elsewhere/mod }\n");
  WriteModule("elsewhere/mod");
  Write("proj/main/main.yaml", "modules:\n  outer: { source: ../modules/outer }\n");
  std::string out = Load("project: p\nstages:\n  - { name: main, path: main }\n");
  EXPECT_THAT(out, HasSubstr("proj/modules/outer/main.yaml:2:20: Module source outside the project: The module call "
                             "\"inner\""));
}

TEST_F(ProjectTest, AllowPathsOutsideProjectLetsThemIn) {
  WriteModule("elsewhere/mod");
  WriteModule("shared-stage");
  Write("proj/main/main.yaml", "modules:\n  up: { source: ../../elsewhere/mod }\n");
  std::string out = Load("project: p\nallow_paths_outside_project: true\nstages:\n"
                         "  - { name: main, path: main }\n  - { name: shared, path: ../shared-stage }\n");
  EXPECT_EQ(out, "");
  ASSERT_NE(loaded_, nullptr);
  EXPECT_EQ(loaded_->root->modules.count("up"), 1u);
}

TEST_F(ProjectTest, AllowPathsOutsideProjectIsABoolean) {
  Write("proj/main/main.yaml", "outputs:\n  x: { value: 1 }\n");
  std::string out = Load("project: p\nallow_paths_outside_project: sometimes\nstages:\n  - { name: main, path: main }\n");
  EXPECT_THAT(out, HasSubstr("proj/strata.yaml:2:30: Invalid value: allow_paths_outside_project must be true or false."));
}

}  // namespace
}  // namespace strata
