#include <thread>

#include "providers/builtin/sleep.h"
#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class TimeSleepTest : public ProviderTest {};

TEST_F(TimeSleepTest, CreateSleepsReportsProgressAndStampsId) {
  std::vector<std::string> progress;
  ctx_.progress = [&](const std::string& m) { progress.push_back(m); };
  Value state = Create("time_sleep", Obj({{"create_duration", S("1m")}}));
  EXPECT_EQ(clock_->TotalSlept(), std::chrono::minutes(1));
  EXPECT_EQ(At(state, "id").AsString(), "2023-11-14T22:14:20Z");  // start + 60 s
  ASSERT_FALSE(progress.empty());
  EXPECT_NE(progress.front().find("still creating... (10s of 1m elapsed)"), std::string::npos)
      << progress.front();
}

TEST_F(TimeSleepTest, DestroySleepsDestroyDuration) {
  Value state = Create("time_sleep", Obj({{"destroy_duration", S("1m30s")}}));
  EXPECT_EQ(clock_->TotalSlept(), std::chrono::seconds(0));
  EXPECT_FALSE(provider_->DeleteResource(ctx_, "time_sleep", state).diags.HasErrors());
  EXPECT_EQ(clock_->TotalSlept(), std::chrono::seconds(90));
}

TEST_F(TimeSleepTest, CancellationInterruptsTheSleep) {
  clock_->on_sleep = [&](base::Clock::Duration slept) {
    if (slept >= std::chrono::seconds(30)) ctx_.cancellation.Cancel();
  };
  PlanResult plan = Plan("time_sleep", Value(), Obj({{"create_duration", S("1h")}}));
  ApplyResult created = provider_->CreateResource(ctx_, "time_sleep", plan.planned);
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_EQ(created.diags.items()[0].summary, "Sleep interrupted");
  EXPECT_LT(clock_->TotalSlept(), std::chrono::minutes(1));
}

TEST_F(TimeSleepTest, RealClockHonoursCancellation) {
  base::SystemClock clock;
  OperationContext ctx;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ctx.cancellation.Cancel();
  });
  auto start = std::chrono::steady_clock::now();
  bool done = builtin::SleepWithProgress(clock, ctx, std::chrono::seconds(30), std::chrono::seconds(1), nullptr);
  canceller.join();
  EXPECT_FALSE(done);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST_F(TimeSleepTest, DurationChangeUpdatesInPlaceTriggersReplace) {
  Value config = Obj({{"create_duration", S("1s")}, {"triggers", StrMap({{"a", "1"}})}});
  Value state = Create("time_sleep", config);
  PlanResult longer = Plan("time_sleep", state,
                           Obj({{"create_duration", S("2s")}, {"triggers", StrMap({{"a", "1"}})}}));
  EXPECT_TRUE(longer.requires_replace.empty());
  EXPECT_EQ(At(longer.planned, "create_duration").AsString(), "2s");
  PlanResult triggers = Plan("time_sleep", state,
                             Obj({{"create_duration", S("1s")}, {"triggers", StrMap({{"a", "2"}})}}));
  EXPECT_TRUE(Replaces(triggers, "triggers"));
}

TEST_F(TimeSleepTest, ValidationAndImport) {
  EXPECT_TRUE(Plan("time_sleep", Value(), Obj({{"create_duration", S("soon")}})).diags.HasErrors());
  EXPECT_TRUE(Plan("time_sleep", Value(), Obj({})).diags.HasErrors());
  ApplyResult imported = provider_->ImportResource(ctx_, "time_sleep", "30s,");
  ASSERT_FALSE(imported.diags.HasErrors()) << Messages(imported.diags);
  EXPECT_EQ(At(imported.state, "create_duration").AsString(), "30s");
  EXPECT_TRUE(At(imported.state, "destroy_duration").IsNull());
}

}  // namespace
}  // namespace strata::testing
