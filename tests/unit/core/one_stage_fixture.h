#pragma once
// The fixture the engine's plan/apply tests share: a project with one stage "s" in a fresh
// directory, its SQLite state, and an engine over the providers a test registers; plans
// and applies go through the engine API (PlanStage, ApplyPlan) as `strata` itself calls it.
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "engine/cli/wiring.h"
#include "engine/core/applier.h"
#include "engine/core/planner.h"

namespace strata::testing_support {

class OneStageFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("strata-stage-" + std::to_string(::getpid()) + "-" + test->test_suite_name() + "-" + test->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "s");
    std::ofstream(dir_ / "strata.yaml") << "project: t\nstages:\n  - { name: s, path: s }\n";
    RegisterProviders();
    schemas_ = registry_.Schemas();
    engine_ = std::make_unique<Engine>(schemas_, sources_);
    Diagnostics diags;
    project_ = engine_->OpenProject(dir_.string(), diags);
    ASSERT_TRUE(project_) << diags.items()[0].detail;
    auto store = cli::OpenProjectStore(*project_, "default");
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(*store);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  //! Registers the providers the stage's types come from, in registry_.
  virtual void RegisterProviders() = 0;

  void WriteConfig(const std::string& yaml) { std::ofstream(dir_ / "s" / "main.yaml") << yaml; }

  //! Loads the stage's config and prior state afresh and returns a request to plan them,
  //! for the test to adjust before PlanStage. Load errors go to `diags`.
  PlanRequest PlanRequestFor(PlanMode mode, Diagnostics& diags) {
    loaded_ = engine_->LoadStage(*project_, "s", diags);
    prior_ = *store_->LoadStage("s");
    PlanRequest req;
    req.engine = engine_.get();
    req.project = &*project_;
    req.stage = loaded_.get();
    req.prior = &prior_;
    req.providers = &registry_;
    req.mode = mode;
    return req;
  }

  //! Applies `plan` (made by the last PlanRequestFor) under the stage's lock.
  ApplyOutcome ApplyLocked(const Plan& plan, Diagnostics& diags) {
    auto lock = store_->Lock({"s", "apply", std::chrono::milliseconds(0)});
    EXPECT_TRUE(lock.ok());
    ApplyRequest req;
    req.engine = engine_.get();
    req.project = &*project_;
    req.stage = loaded_.get();
    req.plan = &plan;
    req.providers = &registry_;
    req.store = store_.get();
    req.lock_id = lock->id;
    ApplyOutcome out = ApplyPlan(req, diags);
    EXPECT_TRUE(store_->Unlock("s", lock->id).ok());
    return out;
  }

  static const ResourceInstanceChange* Find(const Plan& plan, const std::string& address) {
    for (const auto& c : plan.changes) {
      if (c.addr.ToString() == address) return &c;
    }
    return nullptr;
  }

  std::filesystem::path dir_;
  ProviderRegistry registry_;
  SchemaRegistry schemas_;
  SourceRegistry sources_;
  std::unique_ptr<Engine> engine_;
  std::optional<ProjectConfig> project_;
  std::unique_ptr<state::StateStore> store_;
  std::unique_ptr<LoadedStage> loaded_;
  state::StageState prior_;
};

}  // namespace strata::testing_support
