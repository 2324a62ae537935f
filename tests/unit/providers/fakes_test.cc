// The in-memory seams drive the same resource types without touching disk or spawning.
#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class FakeSeamsTest : public ProviderTest {
 protected:
  void SetUp() override {
    ProviderTest::SetUp();
    files_ = std::make_shared<InMemoryFileSystem>();
    processes_ = std::make_shared<FakeProcessRunner>();
    BuiltinEnv env{random_, clock_, files_, processes_};
    provider_ = std::make_unique<BuiltinProvider>(env);
  }
  std::shared_ptr<InMemoryFileSystem> files_;
  std::shared_ptr<FakeProcessRunner> processes_;
};

TEST_F(FakeSeamsTest, LocalFileInMemoryWithDrift) {
  Value state = Create("local_file", Obj({{"filename", S("/virtual/a.txt")},
                                          {"content", S("x")},
                                          {"file_permission", S("0600")}}));
  ASSERT_EQ(files_->Files().count("/virtual/a.txt"), 1u);
  EXPECT_EQ(files_->Files().at("/virtual/a.txt").mode, 0600u);
  files_->Put("/virtual/a.txt", "y", 0600);
  EXPECT_EQ(At(provider_->ReadResource(ctx_, "local_file", state).state, "content").AsString(), "y");
  files_->Remove("/virtual/a.txt");
  EXPECT_TRUE(provider_->ReadResource(ctx_, "local_file", state).gone);
}

TEST_F(FakeSeamsTest, ExecWithScriptedRunner) {
  processes_->respond = [](const ProcessSpec& spec) {
    ProcessResult r;
    r.started = true;
    r.exit_code = spec.argv[0] == "fail" ? 2 : 0;
    r.stdout_text = r.combined = "out\n";
    return r;
  };
  Value state = Create("exec", Obj({{"command", Strs({"ok", "arg"})},
                                    {"environment", StrMap({{"A", "1"}})},
                                    {"timeout", S("5s")}}));
  EXPECT_EQ(At(state, "stdout").AsString(), "out\n");
  ASSERT_EQ(processes_->Calls().size(), 1u);
  EXPECT_EQ(processes_->Calls()[0].env.at("A"), "1");
  EXPECT_EQ(processes_->Calls()[0].timeout, std::chrono::milliseconds(5000));

  PlanResult plan = Plan("exec", Value(), Obj({{"command", Strs({"fail"})}}));
  ApplyResult failed = provider_->CreateResource(ctx_, "exec", plan.planned);
  ASSERT_TRUE(failed.diags.HasErrors());
  EXPECT_NE(failed.diags.items()[0].detail.find("exited with status 2"), std::string::npos);
}

}  // namespace
}  // namespace strata::testing
