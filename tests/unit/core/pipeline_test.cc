// The pipeline of stages (engine/core/pipeline.h): slices, the walk's order, stages side by
// side, the stop after a failure; and the planned outputs later stages read during
// `pipeline plan` (engine/core/planned_stage_outputs.h).

#include "engine/core/pipeline.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

#include <gtest/gtest.h>

#include "engine/core/planned_stage_outputs.h"

namespace strata {
namespace {

// net ← app ← web, db ← web, db reads net: app and db may run side by side.
StagePipeline Diamond() {
  StagePipeline p;
  p.order = {"net", "app", "db", "web"};
  p.reads = {{"app", {"net"}}, {"db", {"net"}}, {"web", {"app", "db"}}};
  return p;
}

std::vector<std::string> Select(const StageSlice& slice, bool reverse, std::string* error = nullptr) {
  Diagnostics diags;
  auto selected = SelectStages(Diamond(), slice, reverse, diags);
  if (error && diags.HasErrors()) *error = diags.begin()->detail;
  return selected.value_or(std::vector<std::string>{"<refused>"});
}

TEST(SelectStagesTest, EveryStageInOrderAndReversedForADestroy) {
  EXPECT_EQ(Select({}, false), (std::vector<std::string>{"net", "app", "db", "web"}));
  EXPECT_EQ(Select({}, true), (std::vector<std::string>{"web", "db", "app", "net"}));
}

TEST(SelectStagesTest, TargetsFromAndToSlice) {
  EXPECT_EQ(Select({{"web", "net"}, "", ""}, false), (std::vector<std::string>{"net", "web"}));
  EXPECT_EQ(Select({{}, "app", ""}, false), (std::vector<std::string>{"app", "db", "web"}));
  EXPECT_EQ(Select({{}, "", "db"}, false), (std::vector<std::string>{"net", "app", "db"}));
  // -from/-to name positions in the apply order, for a destroy too.
  EXPECT_EQ(Select({{}, "app", "db"}, true), (std::vector<std::string>{"db", "app"}));
}

TEST(SelectStagesTest, RefusesUnknownStagesAndEmptySlices) {
  std::string error;
  EXPECT_EQ(Select({{"nope"}, "", ""}, false, &error), std::vector<std::string>{"<refused>"});
  EXPECT_NE(error.find("no stage \"nope\". Its stages, in order: net, app, db, web"), std::string::npos) << error;
  EXPECT_EQ(Select({{}, "web", "net"}, false, &error), std::vector<std::string>{"<refused>"});
  EXPECT_NE(error.find("-from web comes after -to net"), std::string::npos) << error;
  EXPECT_EQ(Select({{"web"}, "", "db"}, false, &error), std::vector<std::string>{"<refused>"});
  EXPECT_NE(error.find("select no stage"), std::string::npos) << error;
}

// Runs the walk with `run` deciding each stage's success; records the order stages started.
struct Recorder {
  std::mutex mu;
  std::vector<std::string> started;
  std::vector<StageStatus> Walk(const std::vector<std::string>& stages, bool reverse, int parallelism,
                                const std::set<std::string>& failing = {}) {
    PipelineWalkOptions options;
    options.stage_parallelism = parallelism;
    return WalkStages(Diamond(), stages, reverse, options, [&](const std::string& s) {
      {
        std::lock_guard lock(mu);
        started.push_back(s);
      }
      return !failing.count(s);
    });
  }
};

TEST(WalkStagesTest, OneAfterTheOtherInTheGivenOrder) {
  Recorder r;
  auto status = r.Walk({"net", "app", "db", "web"}, false, 1);
  EXPECT_EQ(r.started, (std::vector<std::string>{"net", "app", "db", "web"}));
  EXPECT_EQ(status, std::vector<StageStatus>(4, StageStatus::Succeeded));
}

TEST(WalkStagesTest, NoStageStartsAfterAFailure) {
  Recorder r;
  auto status = r.Walk({"net", "app", "db", "web"}, false, 1, {"app"});
  EXPECT_EQ(r.started, (std::vector<std::string>{"net", "app"}));
  EXPECT_EQ(status, (std::vector<StageStatus>{StageStatus::Succeeded, StageStatus::Failed, StageStatus::NotRun,
                                              StageStatus::NotRun}));
}

TEST(WalkStagesTest, IndependentStagesRunSideBySideAndReadersWait) {
  // app and db each wait (up to 10 s) for the other to have started: they meet only when
  // they run side by side.
  std::mutex mu;
  std::condition_variable cv;
  int pair_started = 0;
  bool met = true;
  std::vector<std::string> finished;
  PipelineWalkOptions options;
  options.stage_parallelism = 4;
  auto status = WalkStages(Diamond(), {"net", "app", "db", "web"}, false, options, [&](const std::string& s) {
    std::unique_lock lock(mu);
    if (s == "web") {
      EXPECT_EQ(finished.size(), 3u) << "web started before app and db ended";
    }
    if (s != "net") {
      EXPECT_FALSE(finished.empty()) << s << " started before net ended";
    }
    if (s == "app" || s == "db") {
      ++pair_started;
      cv.notify_all();
      met = cv.wait_for(lock, std::chrono::seconds(10), [&] { return pair_started == 2; }) && met;
    }
    finished.push_back(s);
    return true;
  });
  EXPECT_TRUE(met) << "app and db did not run side by side";
  EXPECT_EQ(finished.back(), "web");
  EXPECT_EQ(status, std::vector<StageStatus>(4, StageStatus::Succeeded));
}

TEST(WalkStagesTest, ADestroyWaitsForTheReaders) {
  Recorder r;
  r.Walk({"web", "db", "app", "net"}, true, 3);
  ASSERT_EQ(r.started.size(), 4u);
  EXPECT_EQ(r.started.front(), "web");
  EXPECT_EQ(r.started.back(), "net");
}

TEST(WalkStagesTest, WaitsThroughStagesOutsideTheSlice) {
  // web reads app, which is not in the slice; net is read by app: web still goes after net.
  Recorder r;
  r.Walk({"net", "web"}, false, 2);
  EXPECT_EQ(r.started, (std::vector<std::string>{"net", "web"}));
}

struct StoredOutputs : StageOutputSource {
  std::optional<int64_t> StageSerial(const std::string&) override { return 7; }
  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override {
    if (stage == "old" && output == "x") return Value::String("stored");
    error = "stage \"" + stage + "\" has not been applied yet";
    return std::nullopt;
  }
};

TEST(PlannedStageOutputsTest, PlannedValuesKnownOrUnknownThenTheStore) {
  StoredOutputs stored;
  PlannedStageOutputs outputs(stored);
  Plan plan;
  plan.stage = "net";
  plan.output_changes.push_back({"name", Action::Create, Value::Null(), Value::String("net-1"), false});
  plan.output_changes.push_back({"id", Action::Create, Value::Null(), Value::Unknown(), false});
  plan.output_changes.push_back({"gone", Action::Delete, Value::String("g"), Value::Null(), false});
  std::string error;
  EXPECT_FALSE(outputs.ReadOutput("net", "name", error).has_value()) << "not planned yet: the store answers";
  EXPECT_EQ(outputs.StageSerial("net"), 7);
  outputs.Add(plan);
  EXPECT_EQ(outputs.StageSerial("net"), std::nullopt) << "planned values are of no serial yet";
  EXPECT_EQ(outputs.ReadOutput("net", "name", error)->AsString(), "net-1");
  EXPECT_TRUE(outputs.ReadOutput("net", "id", error)->IsUnknown());
  EXPECT_FALSE(outputs.ReadOutput("net", "gone", error).has_value());
  EXPECT_NE(error.find("no output \"gone\" in the plan"), std::string::npos) << error;
  EXPECT_EQ(outputs.ReadOutput("old", "x", error)->AsString(), "stored");
}

}  // namespace
}  // namespace strata
