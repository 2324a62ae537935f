#pragma once
// A fresh temporary directory per test, with helpers to write project and module files and
// to load them through the Engine. Used by the config and core tests.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "engine/core/engine.h"
#include "engine/diag/render.h"
#include "engine/cli/wiring.h"

namespace strata::testing {

class TempProject : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = std::filesystem::temp_directory_path() /
            ("strata-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" + std::to_string(rd()));
    std::filesystem::create_directories(root_);
    root_ = std::filesystem::canonical(root_);  // the loader reports canonical paths
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  //! Writes `text` to `relative` under the temp dir (creating directories); returns its path.
  std::string Write(const std::string& relative, const std::string& text) {
    std::filesystem::path p = root_ / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string Path(const std::string& relative = "") const { return (root_ / relative).lexically_normal().string(); }

  //! A one-stage project whose stage "main" lives in main/.
  void WriteSingleStageProject() { Write("strata.yaml", "project: test\nstages:\n  - { name: main, path: main }\n"); }

  //! Opens the project and loads `stage`; diagnostics go to `diags_`.
  std::unique_ptr<LoadedStage> LoadStage(const std::string& stage = "main") {
    project_ = engine_.OpenProject(root_.string(), diags_);
    if (!project_) return nullptr;
    return engine_.LoadStage(*project_, stage, diags_);
  }

  //! Loads and evaluates `stage`.
  std::unique_ptr<StageEvaluation> Evaluate(const std::string& stage = "main", EngineOptions options = {}) {
    loaded_ = LoadStage(stage);
    if (!loaded_ || diags_.HasErrors()) return nullptr;
    return engine_.EvaluateStage(*project_, *loaded_, options, diags_);
  }

  //! Every diagnostic as "file:line:col: summary: detail" (file relative to the temp dir).
  std::string Messages() const {
    std::string out;
    for (const auto& d : diags_) {
      std::string where = d.subject.IsKnown()
                              ? DisplayName(d.subject.file, RenderOptions{false, root_.string()}) + ":" +
                                    std::to_string(d.subject.start.line) + ":" + std::to_string(d.subject.start.column) + ": "
                              : "";
      out += where + d.summary + ": " + d.detail + "\n";
    }
    return out;
  }
  //! The diagnostics rendered for people, paths relative to the temp dir.
  std::string Rendered() const { return RenderDiagnostics(diags_, &sources_, RenderOptions{false, root_.string()}); }

  std::filesystem::path root_;
  SchemaRegistry schemas_ = cli::DefaultSchemas();
  SourceRegistry sources_;
  Engine engine_{schemas_, sources_};
  std::optional<ProjectConfig> project_;
  std::unique_ptr<LoadedStage> loaded_;
  Diagnostics diags_;
};

}  // namespace strata::testing
