#include <csignal>
#include <thread>

#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class ExecTest : public ProviderTest {};

Value Sh(const std::string& script) { return Strs({"/bin/sh", "-c", script}); }

TEST_F(ExecTest, CapturesOutputEnvAndWorkingDir) {
  Value state = Create("exec", Obj({{"command", Sh("echo \"$GREETING\"; pwd; echo oops >&2")},
                                    {"environment", StrMap({{"GREETING", "hi there"}})},
                                    {"working_dir", S(dir_.string())}}));
  std::string canonical = std::filesystem::canonical(dir_).string();
  EXPECT_EQ(At(state, "stdout").AsString(), "hi there\n" + canonical + "\n");
  EXPECT_EQ(At(state, "stderr").AsString(), "oops\n");
  EXPECT_EQ(At(state, "exit_code").AsNumber(), 0);
  EXPECT_FALSE(At(state, "id").AsString().empty());
}

TEST_F(ExecTest, PlanUnknownsAndReplaceOnCommandChange) {
  Value config = Obj({{"command", Strs({"true"})}});
  PlanResult plan = Plan("exec", Value(), config);
  EXPECT_TRUE(At(plan.planned, "stdout").IsUnknown());
  EXPECT_TRUE(At(plan.planned, "exit_code").IsUnknown());
  Value state = Create("exec", config);
  EXPECT_TRUE(Plan("exec", state, config).requires_replace.empty());
  EXPECT_TRUE(Replaces(Plan("exec", state, Obj({{"command", Strs({"false"})}})), "command"));
  PlanResult destroy_cmd =
      Plan("exec", state, Obj({{"command", Strs({"true"})}, {"destroy_command", Strs({"true"})}}));
  EXPECT_TRUE(destroy_cmd.requires_replace.empty());
}

TEST_F(ExecTest, NonZeroExitFailsWithLastLines) {
  PlanResult plan = Plan("exec", Value(),
                         Obj({{"command", Sh("for i in $(seq 1 30); do echo line$i; done; exit 3")}}));
  ApplyResult created = provider_->CreateResource(ctx_, "exec", plan.planned);
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_TRUE(created.state.IsNull());
  const Diagnostic& d = created.diags.items()[0];
  EXPECT_EQ(d.summary, "Command failed");
  EXPECT_NE(d.detail.find("exited with status 3"), std::string::npos) << d.detail;
  EXPECT_NE(d.detail.find("line11\n"), std::string::npos) << d.detail;
  EXPECT_NE(d.detail.find("line30"), std::string::npos) << d.detail;
  EXPECT_EQ(d.detail.find("line10\n"), std::string::npos) << d.detail;  // only the last 20
}

TEST_F(ExecTest, TimeoutKillsTheProcessGroup) {
  std::string marker = Path("survivor");
  PlanResult plan = Plan("exec", Value(),
                         Obj({{"command", Sh("(sleep 1; touch " + marker + ") & sleep 30")},
                              {"timeout", S("200ms")}}));
  auto start = std::chrono::steady_clock::now();
  ApplyResult created = provider_->CreateResource(ctx_, "exec", plan.planned);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_EQ(created.diags.items()[0].summary, "Command timed out");
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_FALSE(std::filesystem::exists(marker)) << "the background child was not killed";
}

TEST_F(ExecTest, CancellationKills) {
  ctx_.cancellation.Cancel();
  PlanResult plan = Plan("exec", Value(), Obj({{"command", Strs({"sleep", "30"})}}));
  auto start = std::chrono::steady_clock::now();
  ApplyResult created = provider_->CreateResource(ctx_, "exec", plan.planned);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_EQ(created.diags.items()[0].summary, "Command interrupted");
}

TEST_F(ExecTest, DestroyRunsDestroyCommand) {
  std::string marker = Path("destroyed");
  Value state = Create("exec", Obj({{"command", Strs({"true"})},
                                    {"destroy_command", Sh("echo bye > " + marker)}}));
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_FALSE(provider_->DeleteResource(ctx_, "exec", state).diags.HasErrors());
  EXPECT_EQ(ReadText(marker), "bye\n");

  Value failing = Create("exec", Obj({{"command", Strs({"true"})},
                                      {"destroy_command", Sh("echo cannot >&2; exit 1")}}));
  DeleteResult deleted = provider_->DeleteResource(ctx_, "exec", failing);
  ASSERT_TRUE(deleted.diags.HasErrors());
  EXPECT_NE(deleted.diags.items()[0].detail.find("cannot"), std::string::npos);
}

TEST_F(ExecTest, MissingProgramCannotStart) {
  PlanResult plan = Plan("exec", Value(), Obj({{"command", Strs({"/no/such/program"})}}));
  ApplyResult created = provider_->CreateResource(ctx_, "exec", plan.planned);
  ASSERT_TRUE(created.diags.HasErrors());
  EXPECT_EQ(created.diags.items()[0].summary, "Command could not start");
}

}  // namespace
}  // namespace strata::testing

namespace strata::testing {
namespace {

TEST(ProcessRunnerTest, ReportsProgressWhileRunning) {
  OperationContext ctx;
  std::vector<std::string> progress;
  ctx.progress = [&](const std::string& m) { progress.push_back(m); };
  ProcessSpec spec;
  spec.argv = {"sleep", "0.3"};
  spec.progress_every = std::chrono::milliseconds(100);
  ProcessResult result = PosixProcessRunner()->Run(ctx, spec);
  EXPECT_TRUE(result.ok());
  ASSERT_GE(progress.size(), 2u);
  EXPECT_EQ(progress[0], "still running... (0s elapsed)");
}

TEST(ProcessRunnerTest, ContextDeadlineKills) {
  OperationContext ctx;
  ctx.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  ProcessSpec spec;
  spec.argv = {"sleep", "30"};
  ProcessResult result = PosixProcessRunner()->Run(ctx, spec);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
}

}  // namespace
}  // namespace strata::testing
