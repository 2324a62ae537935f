// Plan and apply through the engine API (PlanStage, ApplyPlan) with a fake cloud provider:
// creates, no-op re-plans, force-new replacement, failed creates kept tainted, an
// interrupted create recovered with its idempotency token, creates and updates that run
// past their `timeouts:`; and time_rotating's rotation with the builtin provider on a fake
// clock.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "engine/base/time_format.h"
#include "engine/core/applier.h"
#include "engine/core/planner.h"
#include "engine/core/saved_plan.h"
#include "engine/core/stage_run.h"
#include "engine/plan/render_human.h"
#include "providers/builtin/builtin_provider.h"
#include "providers/resource_type.h"
#include "tests/unit/core/one_stage_fixture.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// A cloud of "things": an object per id; creating with a token already used returns the
// object made with it (as EC2's ClientToken or EKS's clientRequestToken do).
struct FakeCloud {
  std::mutex mu;
  std::map<std::string, Value> objects;         // id -> state
  std::map<std::string, std::string> by_token;  // token -> id
  std::vector<std::string> create_tokens;
  std::vector<bool> create_resumes;  // ctx.resume_interrupted_create of each create
  std::vector<std::string> delete_endpoints;  // the provider settings each delete ran with
  int next_id = 1;
  //! The next create makes its object but its answer is lost (a reset connection, a 5xx).
  bool lose_next_create_answer = false;
  //! "create <name>" / "delete <name>", in the order the calls came.
  std::vector<std::string> calls;
  //! Things named "stuck" refuse to be deleted while this holds.
  bool stuck_in_use = true;
  //! Each read takes this long; the most reads seen running at once.
  std::chrono::milliseconds read_delay{0};
  std::atomic<int> reading{0};
  std::atomic<int> most_reading{0};
};

class FakeProvider : public Provider {
 public:
  explicit FakeProvider(std::shared_ptr<FakeCloud> cloud) : cloud_(std::move(cloud)) {}
  std::string Name() const override { return "fake"; }
  ProviderSchema Schema() const override {
    ProviderSchema s;
    s.provider.type = "fake";
    s.provider.attributes["endpoint"] = attrs::Optional("string");
    using namespace attrs;
    s.resources.push_back(ManagedSchema("fake_thing", {{"name", Required("string", true)},
                                                        {"size", attrs::Optional("number")},
                                                        {"status", Computed("string")},
                                                        {"id", Computed("string")}}));
    s.resources.back().create_recovery = CreateRecovery::ClientToken;
    // A name prefix read from the cloud, as an IAM policy ARN comes from aws_partition.
    s.data_sources.push_back(ManagedSchema("fake_prefix", {{"value", Computed("string")}}));
    s.data_sources.back().mode = ResourceMode::Data;
    return s;
  }
  Diagnostics Configure(const OperationContext&, const Value& settings) override {
    settings_ = settings;
    return {};
  }
  ReadResult ReadResource(const OperationContext&, const std::string&, const Value& prior) override {
    int now = ++cloud_->reading;
    for (int most = cloud_->most_reading; now > most && !cloud_->most_reading.compare_exchange_weak(most, now);) {
    }
    std::this_thread::sleep_for(cloud_->read_delay);
    --cloud_->reading;
    std::lock_guard lock(cloud_->mu);
    ReadResult r;
    auto it = cloud_->objects.find(prior.AsMap().at("id").AsString());
    if (it == cloud_->objects.end()) r.gone = true;
    else r.state = it->second;
    return r;
  }
  PlanResult PlanResourceChange(const OperationContext&, const std::string&, const Value& prior, const Value& proposed,
                                const Value&) override {
    PlanResult r;
    r.planned = proposed;
    if (!prior.IsNull() && !(prior.AsMap().at("name") == proposed.AsMap().at("name"))) {
      r.requires_replace.push_back(AttrPath::Of("name"));
    }
    return r;
  }
  // Things named "...-c<digit>" report that digit as their ordering class.
  int OrderingClass(const std::string&, const Value& value) const override {
    Value name = attrs::Get(value, "name");
    if (!name.IsString()) return 0;
    const std::string& n = name.AsString();
    auto at = n.rfind("-c");
    return at == std::string::npos || at + 3 != n.size() ? 0 : n[at + 2] - '0';
  }
  ApplyResult CreateResource(const OperationContext& ctx, const std::string&, const Value& planned) override {
    std::lock_guard lock(cloud_->mu);
    cloud_->calls.push_back("create " + attrs::GetString(planned, "name"));
    cloud_->create_tokens.push_back(ctx.idempotency_token);
    cloud_->create_resumes.push_back(ctx.resume_interrupted_create);
    ApplyResult r;
    if (attrs::GetString(planned, "name") == "refused") {
      r.diags.Error("Quota exceeded", "no object was made");
      return r;
    }
    if (auto it = cloud_->by_token.find(ctx.idempotency_token); it != cloud_->by_token.end()) {
      r.state = cloud_->objects.at(it->second);
      return r;
    }
    std::string id = "thing-" + std::to_string(cloud_->next_id++);
    ValueMap attrs = planned.AsMap();
    attrs["id"] = Value::String(id);
    attrs["status"] = Value::String("ok");
    r.state = Value::Object(attrs);
    cloud_->objects[id] = r.state;
    cloud_->by_token[ctx.idempotency_token] = id;
    if (cloud_->lose_next_create_answer) {
      cloud_->lose_next_create_answer = false;
      ApplyResult lost;
      lost.diags.Error("Connection reset", "the create was sent; no answer came back");
      lost.outcome_unknown = true;
      return lost;
    }
    if (attrs["name"].AsString() == "broken") r.diags.Error("Thing unhealthy", "created, but it never became ready");
    if (attrs["name"].AsString() == "slow" && ctx.deadline) return WaitedPastDeadline(ctx, r.state);
    return r;
  }
  ApplyResult UpdateResource(const OperationContext& ctx, const std::string&, const Value& prior,
                             const Value& planned) override {
    // Things named "slow" become ready only after any deadline: a wait that gives up there.
    if (attrs::GetString(planned, "name") == "slow" && ctx.deadline) return WaitedPastDeadline(ctx, prior);
    std::lock_guard lock(cloud_->mu);
    // Things named "halfway" start the change but refuse the new size: a partial update.
    if (attrs::GetString(planned, "name") == "halfway") {
      Value partial = attrs::With(attrs::With(planned, "size", attrs::Get(prior, "size")), "status",
                                  Value::String("half-done"));
      cloud_->objects[planned.AsMap().at("id").AsString()] = partial;
      ApplyResult r{partial, {}};
      r.diags.Error("Size not changed", "the change started; the size cannot change now");
      return r;
    }
    cloud_->objects[planned.AsMap().at("id").AsString()] = planned;
    return {planned, {}};
  }
  DeleteResult DeleteResource(const OperationContext&, const std::string&, const Value& prior) override {
    std::lock_guard lock(cloud_->mu);
    cloud_->calls.push_back("delete " + attrs::GetString(prior, "name"));
    if (settings_.IsMapping()) cloud_->delete_endpoints.push_back(settings_.AsMap().at("endpoint").AsString());
    DeleteResult r;
    if (prior.AsMap().at("name").AsString() == "stuck" && cloud_->stuck_in_use) {
      r.diags.Error("Thing in use", "it cannot be deleted while in use");
      return r;
    }
    cloud_->objects.erase(prior.AsMap().at("id").AsString());
    return r;
  }
  // Finds an object by the token it was created with (as a token tag would); things named
  // "opaque" stand for types that cannot tell without creating.
  ReadResult FindInterruptedCreate(const OperationContext& ctx, const std::string&, const Value& planned) override {
    std::lock_guard lock(cloud_->mu);
    const Value& name = planned.AsMap().at("name");
    if (!name.IsWhollyKnown()) return {};  // the lookup needs the name, as a natural key does
    if (name.AsString() == "opaque") return {};
    auto it = cloud_->by_token.find(ctx.idempotency_token);
    if (it == cloud_->by_token.end()) return {Value(), true, {}};
    return {cloud_->objects.at(it->second), false, {}};
  }
  ApplyResult ImportResource(const OperationContext&, const std::string&, const std::string&) override { return {}; }
  ReadResult ReadDataSource(const OperationContext&, const std::string&, const Value&) override {
    return {Value::Object({{"value", Value::String("pre")}}), false, {}};
  }

 private:
  // What a provider's wait returns when the object does not get ready before the deadline:
  // the object as far as it is known, and the wait's error.
  static ApplyResult WaitedPastDeadline(const OperationContext& ctx, const Value& state) {
    std::this_thread::sleep_until(*ctx.deadline);
    ApplyResult r{state, {}};
    r.diags.Error("Wait timed out", "Stopped waiting for the thing to become ready.");
    return r;
  }

  std::shared_ptr<FakeCloud> cloud_;
  Value settings_;
};

class PlanApplyTest : public testing_support::OneStageFixture {
 protected:
  //! The providers the stage's types come from: the fake cloud's.
  void RegisterProviders() override {
    registry_.Register("fake", [cloud = cloud_] { return std::make_unique<FakeProvider>(cloud); });
  }

  //! Someone else sets the computed status of the cloud object named `name`.
  void DegradeOutside(const std::string& name) {
    std::lock_guard lock(cloud_->mu);
    for (auto& [id, object] : cloud_->objects) {
      if (attrs::GetString(object, "name") == name) object = attrs::With(object, "status", Value::String("degraded"));
    }
  }

  Plan MakePlan(PlanMode mode = PlanMode::Normal, bool refresh = true) {
    Diagnostics diags;
    PlanRequest req = PlanRequestFor(mode, diags);
    EXPECT_FALSE(diags.HasErrors()) << diags.items()[0].summary << ": " << diags.items()[0].detail;
    req.refresh = refresh;
    PlanOutcome out = PlanStage(req, diags);
    EXPECT_FALSE(diags.HasErrors()) << diags.items()[0].summary << ": " << diags.items()[0].detail;
    return out.plan;
  }

  ApplyOutcome Apply(const Plan& plan, Diagnostics& diags) { return ApplyLocked(plan, diags); }

  // A process journals the create of `address` from `plan`, sends it (the cloud makes the
  // object when `reaches_cloud`), and dies before recording the answer: its change set
  // stays open, the instance pending. Returns the create's token.
  std::string InterruptCreate(const Plan& plan, const std::string& address, bool reaches_cloud) {
    const ResourceInstanceChange* c = Find(plan, address);
    EXPECT_TRUE(c);
    if (!c) return "";
    auto lock = store_->Lock({"s", "apply", std::chrono::milliseconds(0)});
    auto cs = store_->BeginChangeSet(lock->id, "s", "apply");
    EXPECT_TRUE(store_->BeginOperation(*cs, {c->addr, state::OperationAction::Create, "fake", c->idempotency_token}).ok());
    if (reaches_cloud) {
      OperationContext ctx;
      ctx.idempotency_token = c->idempotency_token;
      FakeProvider(cloud_).CreateResource(ctx, "fake_thing", c->after);
    }
    EXPECT_TRUE(store_->Unlock("s", lock->id).ok());
    return c->idempotency_token;
  }

  StageRunContext RunContext() {
    StageRunContext context;
    context.engine = engine_.get();
    context.project = &*project_;
    context.store = store_.get();
    context.providers = &registry_;
    return context;
  }

  std::shared_ptr<FakeCloud> cloud_ = std::make_shared<FakeCloud>();
};

constexpr const char* kTwoThings = R"(
resources:
  a:
    type: fake_thing
    properties: { name: alpha, size: 1 }
  b:
    type: fake_thing
    properties: { name: "beta-${a.id}" }
)";

TEST_F(PlanApplyTest, CreatesThenPlansNoChanges) {
  WriteConfig(kTwoThings);
  Plan plan = MakePlan();
  ASSERT_EQ(plan.changes.size(), 2u);
  EXPECT_EQ(Find(plan, "fake_thing.a")->action, Action::Create);
  EXPECT_TRUE(Find(plan, "fake_thing.b")->after.AsMap().at("name").IsUnknown()) << "depends on a's id";
  Diagnostics diags;
  ApplyOutcome out = Apply(plan, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(out.added, 2);
  EXPECT_EQ(cloud_->objects.size(), 2u);
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 2u);
  EXPECT_EQ(state->FindResource(Find(plan, "fake_thing.b")->addr)->attributes.AsMap().at("name").AsString(), "beta-thing-1");
  EXPECT_EQ(state->FindResource(Find(plan, "fake_thing.b")->addr)->dependencies, std::vector<std::string>{"fake_thing.a"});
  Plan again = MakePlan();
  EXPECT_FALSE(again.HasChanges());
}

// A computed attribute someone else changed (a queue's policy set by a policy resource) is
// drift; an update planned on top of it is applied from what the refresh saw, not from the
// older state (it used to fail with "Provider produced inconsistent final plan").
TEST_F(PlanApplyTest, AnUpdateAfterDriftInAComputedAttributeAppliesFromTheRefresh) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors());
  DegradeOutside("alpha");
  WriteConfig(std::string(kTwoThings).replace(std::string(kTwoThings).find("size: 1"), 7, "size: 2"));
  Plan update = MakePlan();
  ASSERT_EQ(Find(update, "fake_thing.a")->action, Action::Update);
  Diagnostics applied;
  Apply(update, applied);
  ASSERT_FALSE(applied.HasErrors()) << applied.items()[0].summary << ": " << applied.items()[0].detail;
  auto state = store_->LoadStage("s");
  ASSERT_TRUE(state.ok());
  const Value& a = state->FindResource(Find(update, "fake_thing.a")->addr)->attributes;
  EXPECT_EQ(attrs::GetString(a, "status"), "degraded");
  EXPECT_EQ(attrs::GetNumber(a, "size").value_or(0), 2);
  EXPECT_FALSE(MakePlan().HasChanges());
}

// Drift is reported when it may have affected the plan, as Terraform limits its note: a
// computed attribute changed outside on an object nothing planned reads is no news (the
// plan is clean); once a change is planned on an object that reads it, it is reported.
TEST_F(PlanApplyTest, DriftIsReportedOnlyWhenAPlannedChangeDependsOnIt) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors());
  DegradeOutside("alpha");
  Plan quiet = MakePlan();
  EXPECT_FALSE(quiet.HasChanges());
  EXPECT_TRUE(quiet.drift.empty()) << "nothing planned reads fake_thing.a";

  WriteConfig(std::string(kTwoThings).replace(std::string(kTwoThings).find("beta-"), 5, "bravo-"));
  Plan dependent = MakePlan();
  ASSERT_EQ(Find(dependent, "fake_thing.b")->action, Action::DeleteThenCreate);
  ASSERT_EQ(dependent.drift.size(), 1u) << "fake_thing.b's change reads fake_thing.a";
  EXPECT_EQ(dependent.drift[0].addr.ToString(), "fake_thing.a");

  EXPECT_EQ(MakePlan(PlanMode::RefreshOnly).drift.size(), 1u) << "refresh-only plans report every drift";
}

TEST_F(PlanApplyTest, ForceNewChangeReplacesAndUpdateIsInPlace) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig(std::string(kTwoThings).replace(std::string(kTwoThings).find("size: 1"), 7, "size: 2"));
  Plan update = MakePlan();
  EXPECT_EQ(Find(update, "fake_thing.a")->action, Action::Update);
  EXPECT_EQ(Find(update, "fake_thing.b")->action, Action::NoOp);
  WriteConfig(std::string(kTwoThings).replace(std::string(kTwoThings).find("alpha"), 5, "gamma"));
  Plan replace = MakePlan();
  const ResourceInstanceChange* a = Find(replace, "fake_thing.a");
  EXPECT_EQ(a->action, Action::DeleteThenCreate);
  ASSERT_EQ(a->requires_replace.size(), 1u);
  EXPECT_EQ(a->requires_replace[0].ToString(), "name");
  EXPECT_EQ(Find(replace, "fake_thing.b")->action, Action::DeleteThenCreate) << "b's name uses a's new id";
  ApplyOutcome out = Apply(replace, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(out.added, 2);
  EXPECT_EQ(out.destroyed, 2);
  EXPECT_EQ(cloud_->objects.size(), 2u);
}

// Terraform's order for replacements that depend on each other: the dependent's old object
// goes first, then the dependency's; then the dependency is created, then the dependent.
TEST_F(PlanApplyTest, DeleteThenCreateReplacesDeleteDependentsFirst) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig(std::string(kTwoThings).replace(std::string(kTwoThings).find("alpha"), 5, "gamma"));
  cloud_->calls.clear();
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  EXPECT_EQ(cloud_->calls, (std::vector<std::string>{"delete beta-thing-1", "delete alpha", "create gamma",
                                                     "create beta-thing-3"}));
}

// A resource that a create_before_destroy resource depends on is replaced create-first too
// (Terraform's forced create_before_destroy); both old objects go after the walk, the
// dependent's first.
TEST_F(PlanApplyTest, DependenciesOfCreateBeforeDestroyAreReplacedCreateFirst) {
  std::string config = std::string(kTwoThings) + "    lifecycle: { create_before_destroy: true }\n";
  WriteConfig(config);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig(config.replace(config.find("alpha"), 5, "gamma"));
  Plan plan = MakePlan();
  EXPECT_EQ(Find(plan, "fake_thing.a")->action, Action::CreateThenDelete) << "forced by b";
  EXPECT_EQ(Find(plan, "fake_thing.b")->action, Action::CreateThenDelete);
  cloud_->calls.clear();
  Apply(plan, diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  EXPECT_EQ(cloud_->calls, (std::vector<std::string>{"create gamma", "create beta-thing-3", "delete beta-thing-1",
                                                     "delete alpha"}));
  EXPECT_TRUE(store_->LoadStage("s")->deposed.empty());
}

// The refresh of what a plan deletes runs `parallelism` objects at a time, as the walk's
// refresh does — a destroy plan of many objects once read them one by one.
TEST_F(PlanApplyTest, DestroyAndOrphanRefreshesRunInParallel) {
  WriteConfig("resources:\n  many:\n    type: fake_thing\n    count: 8\n    properties: { name: \"m${count.index}\" }\n");
  Diagnostics diags;
  Apply(MakePlan(), diags);
  cloud_->read_delay = std::chrono::milliseconds(30);
  cloud_->most_reading = 0;
  Plan destroy = MakePlan(PlanMode::Destroy);
  EXPECT_EQ(destroy.changes.size(), 8u);
  EXPECT_GT(cloud_->most_reading.load(), 1) << "the destroy plan's refreshes ran one at a time";
  WriteConfig("resources: {}\n");
  cloud_->most_reading = 0;
  Plan orphans = MakePlan();
  EXPECT_EQ(orphans.changes.size(), 8u);
  for (const auto& c : orphans.changes) EXPECT_EQ(c.action, Action::Delete);
  EXPECT_GT(cloud_->most_reading.load(), 1) << "the orphans' refreshes ran one at a time";
}

constexpr const char* kBeforeDestroy = R"(
resources:
  lt:
    type: fake_thing
    properties: { name: NAME }
    lifecycle: { create_before_destroy: true }
  user:
    type: fake_thing
    properties: { name: user, size: "${length(lt.id)}" }
)";

std::string BeforeDestroy(const std::string& name) {
  std::string yaml = kBeforeDestroy;
  return yaml.replace(yaml.find("NAME"), 4, name);
}

TEST_F(PlanApplyTest, CreateBeforeDestroyDeletesTheDeposedObjectAfterItsDependents) {
  WriteConfig(BeforeDestroy("v1"));
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig(BeforeDestroy("v2"));
  Plan plan = MakePlan();
  EXPECT_EQ(Find(plan, "fake_thing.lt")->action, Action::CreateThenDelete);
  cloud_->calls.clear();
  ApplyOutcome out = Apply(plan, diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  EXPECT_EQ(out.added, 1);
  EXPECT_EQ(out.destroyed, 1);
  EXPECT_EQ(cloud_->calls, (std::vector<std::string>{"create v2", "delete v1"}));
  auto state = store_->LoadStage("s");
  EXPECT_TRUE(state->deposed.empty());
  EXPECT_EQ(attrs::GetString(state->FindResource(*ParseResourceInstanceAddr("fake_thing.lt").addr)->attributes, "name"), "v2");
  EXPECT_EQ(cloud_->objects.size(), 2u);
}

// The old object's delete fails: it stays in state as a deposed object, the next plan shows
// it as Terraform does and deletes it.
TEST_F(PlanApplyTest, ADeposedObjectWhoseDeleteFailedIsPlannedAndDeletedNextTime) {
  WriteConfig(BeforeDestroy("stuck"));
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig(BeforeDestroy("fresh"));
  Diagnostics failed;
  Apply(MakePlan(), failed);
  ASSERT_TRUE(failed.HasErrors());
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->deposed.size(), 1u);
  std::string key = state->deposed[0].deposed;
  EXPECT_EQ(key.size(), 8u);
  EXPECT_EQ(failed.items()[0].address, "fake_thing.lt (deposed object " + key + ")");

  Plan next = MakePlan();
  const ResourceInstanceChange* deposed = nullptr;
  for (const auto& c : next.changes) {
    if (!c.deposed.empty()) deposed = &c;
  }
  ASSERT_TRUE(deposed);
  EXPECT_EQ(deposed->action, Action::Delete);
  EXPECT_EQ(Find(next, "fake_thing.lt")->action, Action::NoOp) << "the current object is the new one";
  std::string text = RenderResourceChangeHuman(*deposed, {});
  EXPECT_NE(text.find("# fake_thing.lt (deposed object " + key + ") will be destroyed\n"
                      "  # (left over from a partially-failed replacement of this instance)"),
            std::string::npos)
      << text;
  cloud_->stuck_in_use = false;
  cloud_->calls.clear();
  Diagnostics second;
  ApplyOutcome out = Apply(next, second);
  ASSERT_FALSE(second.HasErrors()) << second.items()[0].detail;
  EXPECT_EQ(out.destroyed, 1);
  EXPECT_EQ(cloud_->calls, std::vector<std::string>{"delete stuck"});
  EXPECT_TRUE(store_->LoadStage("s")->deposed.empty());
  EXPECT_EQ(cloud_->objects.size(), 2u);
}

TEST_F(PlanApplyTest, CreateBeforeDestroyWhoseCreateMadeNothingKeepsTheOldObject) {
  WriteConfig(BeforeDestroy("v1"));
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig(BeforeDestroy("refused"));
  Diagnostics failed;
  Apply(MakePlan(), failed);
  ASSERT_TRUE(failed.HasErrors());
  auto state = store_->LoadStage("s");
  EXPECT_TRUE(state->deposed.empty());
  EXPECT_EQ(attrs::GetString(state->FindResource(*ParseResourceInstanceAddr("fake_thing.lt").addr)->attributes, "name"), "v1");
  EXPECT_EQ(cloud_->objects.size(), 2u) << "the old object was not deleted";
}

// A replacement's create past its timeout: the new object is pending (adopted next time),
// the old one stays deposed until then, and nothing is made twice.
TEST_F(PlanApplyTest, CreateBeforeDestroyPastItsTimeoutKeepsTheOldObjectDeposed) {
  WriteConfig(BeforeDestroy("v1"));
  Diagnostics diags;
  Apply(MakePlan(), diags);
  std::string slow = BeforeDestroy("slow");
  WriteConfig(slow.replace(slow.find("    lifecycle"), 0, "    timeouts: { create: 50ms }\n"));
  Diagnostics timed_out;
  Apply(MakePlan(), timed_out);
  ASSERT_TRUE(timed_out.HasErrors());
  EXPECT_EQ(timed_out.items()[0].summary, "fake_thing.lt: create did not finish within the 50ms timeout (timeouts.create)");
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->deposed.size(), 1u);
  EXPECT_EQ(attrs::GetString(state->deposed[0].attributes, "name"), "v1");
  EXPECT_EQ(state->FindResource(*ParseResourceInstanceAddr("fake_thing.lt").addr)->status,
            state::ResourceStatus::PendingCreate);

  WriteConfig(BeforeDestroy("slow"));
  Diagnostics second;
  Apply(MakePlan(), second);
  ASSERT_FALSE(second.HasErrors()) << second.items()[0].detail;
  EXPECT_TRUE(store_->LoadStage("s")->deposed.empty());
  size_t slow_things = 0, old_things = 0;
  for (const auto& [id, object] : cloud_->objects) {
    slow_things += attrs::GetString(object, "name") == "slow";
    old_things += attrs::GetString(object, "name") == "v1";
  }
  EXPECT_EQ(slow_things, 1u) << "the replacement is adopted, not made twice";
  EXPECT_EQ(old_things, 0u) << "the deposed object is deleted once its replacement exists";
}

// kill -9 after the old object was deposed: at that instant, and after the replacement's
// create was sent but before its answer was recorded. The next apply finds the new object
// by its token (never a second one) and deletes the old one.
TEST_F(PlanApplyTest, CreateBeforeDestroyInterruptedAfterDeposingRecovers) {
  for (bool create_sent : {false, true}) {
    SCOPED_TRACE(create_sent ? "create sent" : "only deposed");
    fs::remove(dir_ / "s" / "main.yaml");
    WriteConfig(BeforeDestroy("v1"));
    Diagnostics diags;
    Apply(MakePlan(), diags);
    WriteConfig(BeforeDestroy("v2"));
    Plan plan = MakePlan();
    const ResourceInstanceChange* lt = Find(plan, "fake_thing.lt");
    {
      auto lock = store_->Lock({"s", "apply", std::chrono::milliseconds(0)});
      auto cs = store_->BeginChangeSet(lock->id, "s", "apply");
      ASSERT_TRUE(store_->DeposeResource(*cs, lt->addr, "dead0001").ok());
      if (create_sent) {
        ASSERT_TRUE(store_->BeginOperation(*cs, {lt->addr, state::OperationAction::Create, "fake", lt->idempotency_token}).ok());
        OperationContext ctx;
        ctx.idempotency_token = lt->idempotency_token;
        FakeProvider(cloud_).CreateResource(ctx, "fake_thing", lt->after);
      }
      ASSERT_TRUE(store_->Unlock("s", lock->id).ok());  // the process is gone
    }
    Plan next = MakePlan();
    EXPECT_EQ(Find(next, "fake_thing.lt")->action, Action::Create);
    Diagnostics second;
    Apply(next, second);
    ASSERT_FALSE(second.HasErrors()) << second.items()[0].detail;
    auto state = store_->LoadStage("s");
    EXPECT_TRUE(state->deposed.empty());
    size_t things_named_lt = 0;
    for (const auto& [id, object] : cloud_->objects) {
      std::string name = attrs::GetString(object, "name");
      if (name == "v1" || name == "v2") ++things_named_lt;
    }
    EXPECT_EQ(things_named_lt, 1u) << "one new object, the old one deleted";
    Plan clean = MakePlan();
    for (const auto& c : clean.changes) EXPECT_EQ(c.action, Action::NoOp) << c.ObjectName();
    // Back to the start for the next round.
    Diagnostics destroyed;
    Apply(MakePlan(PlanMode::Destroy), destroyed);
    ASSERT_FALSE(destroyed.HasErrors());
  }
}

TEST_F(PlanApplyTest, ObjectDeletedOutsideIsRecreated) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  cloud_->objects.erase("thing-2");
  Plan plan = MakePlan();
  EXPECT_EQ(Find(plan, "fake_thing.b")->action, Action::Create);
  EXPECT_EQ(Find(plan, "fake_thing.b")->reason, ActionReason::RecreateBecauseGone);
  ASSERT_EQ(plan.drift.size(), 1u);
  EXPECT_EQ(plan.drift[0].action, Action::Delete);
}

TEST_F(PlanApplyTest, FailedCreateIsKeptTaintedAndReplacedNextTime) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: broken }\n");
  Diagnostics diags;
  ApplyOutcome out = Apply(MakePlan(), diags);
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_EQ(diags.items()[0].address, "fake_thing.x");
  EXPECT_EQ(out.failed, std::vector<std::string>{"fake_thing.x"});
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 1u);
  EXPECT_EQ(state->resources[0].status, state::ResourceStatus::Tainted) << "the object exists: it must not be lost";
  Plan next = MakePlan();
  EXPECT_EQ(Find(next, "fake_thing.x")->action, Action::DeleteThenCreate);
  EXPECT_EQ(Find(next, "fake_thing.x")->reason, ActionReason::ReplaceBecauseTainted);
}

TEST_F(PlanApplyTest, FailedUpdateKeepsWhatTheProviderReportsUntaintedAndUpdatesTheRestNextTime) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: halfway, size: 1 }\n");
  Diagnostics created;
  Apply(MakePlan(), created);
  ASSERT_FALSE(created.HasErrors());
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: halfway, size: 2 }\n");
  Diagnostics diags;
  ApplyOutcome out = Apply(MakePlan(), diags);
  EXPECT_EQ(out.failed, std::vector<std::string>{"fake_thing.x"});
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 1u);
  EXPECT_EQ(state->resources[0].status, state::ResourceStatus::Created) << "a failed update does not taint";
  EXPECT_EQ(attrs::GetString(state->resources[0].attributes, "status"), "half-done") << "the part done stands";
  EXPECT_EQ(attrs::Get(state->resources[0].attributes, "size"), Value::Number(1));
  Plan next = MakePlan();
  EXPECT_EQ(Find(next, "fake_thing.x")->action, Action::Update) << "the rest is updated, nothing replaced";
}

TEST_F(PlanApplyTest, ACreatePastItsTimeoutIsKeptAsInterruptedAndAdoptedNextTime) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: slow }\n"
              "    timeouts: { create: 50ms }\n");
  Plan plan = MakePlan();
  EXPECT_EQ(Find(plan, "fake_thing.x")->timeouts, (std::map<std::string, std::string>{{"create", "50ms"}}));
  Diagnostics diags;
  ApplyOutcome out = Apply(plan, diags);
  EXPECT_EQ(out.failed, std::vector<std::string>{"fake_thing.x"});
  ASSERT_EQ(diags.ErrorCount(), 1u);
  const Diagnostic& error = diags.items()[0];
  EXPECT_EQ(error.summary, "fake_thing.x: create did not finish within the 50ms timeout (timeouts.create)");
  EXPECT_EQ(error.detail,
            "The provider said: Wait timed out: Stopped waiting for the thing to become ready. The object may exist "
            "and may still be on its way: it stays in state as an interrupted create, and the next apply looks for it "
            "by the type's create recovery and waits for it again instead of creating a second one. Raise "
            "timeouts.create if the create needs longer.");
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 1u);
  EXPECT_EQ(state->resources[0].status, state::ResourceStatus::PendingCreate) << "not tainted: it is adopted next";

  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: slow }\n");
  Plan recovery = MakePlan();
  EXPECT_EQ(Find(recovery, "fake_thing.x")->reason, ActionReason::CreateAfterInterruption);
  Diagnostics again;
  Apply(recovery, again);
  EXPECT_FALSE(again.HasErrors());
  EXPECT_TRUE(cloud_->create_resumes.back());
  EXPECT_EQ(cloud_->objects.size(), 1u) << "the object the timed-out create made is adopted, not made twice";
  EXPECT_EQ(store_->LoadStage("s")->resources[0].status, state::ResourceStatus::Created);
}

TEST_F(PlanApplyTest, AnUpdatePastItsTimeoutLeavesThePriorState) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: slow, size: 1 }\n");
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors());
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: slow, size: 2 }\n"
              "    timeouts: { update: 50ms }\n");
  Diagnostics update;
  Apply(MakePlan(), update);
  ASSERT_EQ(update.ErrorCount(), 1u);
  EXPECT_EQ(update.items()[0].summary, "fake_thing.x: update did not finish within the 50ms timeout (timeouts.update)");
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 1u);
  EXPECT_EQ(state->resources[0].status, state::ResourceStatus::Created) << "not tainted: nothing is replaced";
  EXPECT_EQ(attrs::Get(state->resources[0].attributes, "size"), Value::Number(1));
}

TEST_F(PlanApplyTest, InterruptedCreateIsSentAgainWithItsToken) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: solo }\n");
  std::string token = InterruptCreate(MakePlan(), "fake_thing.x", true);
  ASSERT_FALSE(token.empty());
  ASSERT_EQ(cloud_->objects.size(), 1u);
  Plan recovery = MakePlan();
  const ResourceInstanceChange* x = Find(recovery, "fake_thing.x");
  EXPECT_EQ(x->action, Action::Create);
  EXPECT_EQ(x->reason, ActionReason::CreateAfterInterruption);
  EXPECT_EQ(x->idempotency_token, token);
  EXPECT_EQ(x->recovery, CreateRecovery::ClientToken) << "the plan names the type's recovery mechanism";
  Diagnostics diags;
  Apply(recovery, diags);
  EXPECT_TRUE(cloud_->create_resumes.back()) << "the provider is told to look for what the interrupted create made";
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(cloud_->objects.size(), 1u) << "the object made by the interrupted create is adopted, not duplicated";
  EXPECT_EQ(cloud_->create_tokens.back(), token);
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 1u);
  EXPECT_EQ(state->resources[0].status, state::ResourceStatus::Created);
  EXPECT_FALSE(MakePlan().HasChanges());
}

// A create that fails without a definite answer may have made its object: the apply keeps
// the instance pending with its token (as a crash would), the next plan names it an
// interrupted create, and the next apply finds the object instead of making a second one.
TEST_F(PlanApplyTest, CreateWhoseAnswerWasLostStaysPendingAndIsFoundNextRun) {
  WriteConfig(kTwoThings);
  Plan first = MakePlan();
  std::string token = Find(first, "fake_thing.a")->idempotency_token;
  cloud_->lose_next_create_answer = true;
  Diagnostics diags;
  ApplyOutcome out = Apply(first, diags);
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_EQ(out.failed, std::vector<std::string>{"fake_thing.a"});
  EXPECT_EQ(out.skipped, std::vector<std::string>{"fake_thing.b"});
  bool warned = false;
  for (const Diagnostic& d : diags) warned = warned || (d.summary == "Create outcome unknown" && d.address == "fake_thing.a");
  EXPECT_TRUE(warned) << "the apply says the object may exist and what the next run does";
  ASSERT_EQ(cloud_->objects.size(), 1u);
  auto state = store_->LoadStage("s");
  ASSERT_EQ(state->resources.size(), 1u);
  EXPECT_EQ(state->resources[0].status, state::ResourceStatus::PendingCreate) << "the maybe-made object is not forgotten";
  EXPECT_EQ(state->resources[0].idempotency_token, token);

  Plan recovery = MakePlan();
  EXPECT_EQ(Find(recovery, "fake_thing.a")->reason, ActionReason::CreateAfterInterruption);
  EXPECT_EQ(Find(recovery, "fake_thing.a")->idempotency_token, token);
  Diagnostics again;
  Apply(recovery, again);
  EXPECT_FALSE(again.HasErrors()) << again.items()[0].detail;
  EXPECT_EQ(cloud_->objects.size(), 2u) << "a was found by its token, b created: nothing doubled";
  EXPECT_FALSE(MakePlan().HasChanges());
}

TEST_F(PlanApplyTest, OrdinaryCreatesAreNotResumes) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_EQ(cloud_->create_resumes.size(), 2u);
  EXPECT_FALSE(cloud_->create_resumes[0]);
  EXPECT_FALSE(cloud_->create_resumes[1]);
}

// kill -9 during a destroy: the delete was sent and done, but never recorded. The next
// destroy's refresh finds the object gone: it leaves state, and the destroy is complete.
TEST_F(PlanApplyTest, InterruptedDeleteOfAGoneObjectLeavesState) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  {
    auto lock = store_->Lock({"s", "destroy", std::chrono::milliseconds(0)});
    auto cs = store_->BeginChangeSet(lock->id, "s", "destroy");
    auto stage = store_->LoadStage("s");
    const state::ResourceInstanceState& b = stage->resources[1];
    ASSERT_TRUE(store_->BeginOperation(*cs, {b.addr, state::OperationAction::Delete, "fake", ""}).ok());
    cloud_->objects.erase(b.attributes.AsMap().at("id").AsString());
    ASSERT_TRUE(store_->Unlock("s", lock->id).ok());
  }
  Plan destroy = MakePlan(PlanMode::Destroy);
  ASSERT_EQ(destroy.drift.size(), 1u) << "refresh saw the interrupted delete's object gone";
  EXPECT_EQ(destroy.drift[0].action, Action::Delete);
  ApplyOutcome out = Apply(destroy, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(out.destroyed, 1);
  EXPECT_TRUE(out.remaining.empty());
  EXPECT_TRUE(store_->LoadStage("s")->resources.empty()) << "no entry is left for an object already deleted";
  EXPECT_TRUE(cloud_->objects.empty());
}

// kill -9 during an apply's create, then `destroy` rather than `apply`: the destroy asks
// the provider what the interrupted create made, deletes it, and is complete.
TEST_F(PlanApplyTest, DestroyDeletesWhatAnInterruptedCreateMade) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: solo }\n");
  InterruptCreate(MakePlan(), "fake_thing.x", true);
  ASSERT_EQ(cloud_->objects.size(), 1u);
  Plan destroy = MakePlan(PlanMode::Destroy);
  const ResourceInstanceChange* x = Find(destroy, "fake_thing.x");
  ASSERT_TRUE(x) << "the object the interrupted create made is planned for deletion";
  EXPECT_EQ(x->action, Action::Delete);
  EXPECT_EQ(x->reason, ActionReason::InterruptedCreate);
  EXPECT_EQ(x->before.AsMap().at("id").AsString(), "thing-1");
  EXPECT_NE(RenderPlanHuman(destroy, {}).find("the object it made was found by the client token"), std::string::npos)
      << RenderPlanHuman(destroy, {});
  Diagnostics diags;
  ApplyOutcome out = Apply(destroy, diags);
  EXPECT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  EXPECT_EQ(out.destroyed, 1);
  EXPECT_TRUE(out.remaining.empty());
  EXPECT_TRUE(cloud_->objects.empty()) << "nothing is left behind in the cloud";
  EXPECT_TRUE(store_->LoadStage("s")->resources.empty());
}

// The same, when the interrupted create never reached the cloud: the instance leaves state,
// shown as such, and the destroy is complete.
TEST_F(PlanApplyTest, DestroyForgetsAnInterruptedCreateThatMadeNothing) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Plan first = MakePlan();
  InterruptCreate(first, "fake_thing.a", false);
  Plan destroy = MakePlan(PlanMode::Destroy);
  EXPECT_FALSE(destroy.HasChanges());
  ASSERT_EQ(destroy.drift.size(), 1u);
  EXPECT_EQ(destroy.drift[0].reason, ActionReason::InterruptedCreate);
  std::string shown = RenderDriftHuman(destroy);
  EXPECT_NE(shown.find("fake_thing.a was never created: its interrupted create made nothing"), std::string::npos) << shown;
  ApplyOutcome out = Apply(destroy, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_TRUE(out.remaining.empty());
  EXPECT_TRUE(store_->LoadStage("s")->resources.empty()) << "no placeholder outlives the destroy";
}

// The destroy reads the data sources when state holds an interrupted create: a lookup key
// built from one (here the name, from fake_prefix) is known, and what the create made is
// found and deleted rather than left behind (CI's crash test met this with an IAM policy
// attachment whose ARN comes from aws_partition).
TEST_F(PlanApplyTest, DestroyFindsAnInterruptedCreateWhoseKeyComesFromADataSource) {
  WriteConfig("data:\n  p:\n    type: fake_prefix\n"
              "resources:\n  x:\n    type: fake_thing\n    properties: { name: \"${data.p.value}-x\" }\n");
  InterruptCreate(MakePlan(), "fake_thing.x", true);
  ASSERT_EQ(cloud_->objects.size(), 1u);
  Plan destroy = MakePlan(PlanMode::Destroy);
  const ResourceInstanceChange* x = Find(destroy, "fake_thing.x");
  ASSERT_TRUE(x) << RenderPlanHuman(destroy, {});
  EXPECT_EQ(x->reason, ActionReason::InterruptedCreate);
  EXPECT_EQ(x->before.AsMap().at("name").AsString(), "pre-x");
  Diagnostics diags;
  ApplyOutcome out = Apply(destroy, diags);
  EXPECT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  EXPECT_TRUE(out.remaining.empty());
  EXPECT_TRUE(cloud_->objects.empty()) << "the object is not left behind";
  EXPECT_TRUE(store_->LoadStage("s")->resources.empty());
}

// Terraform keeps what each data source read in state (mode data); one gone from config
// leaves it at the next apply without any provider call, and a destroy drops them all.
TEST_F(PlanApplyTest, DataSourcesAreKeptInStateAndLeaveItWithoutAProviderCall) {
  const std::string with_data = "data:\n  p:\n    type: fake_prefix\n"
                                "resources:\n  x:\n    type: fake_thing\n    properties: { name: \"${data.p.value}-x\" }\n";
  WriteConfig(with_data);
  Diagnostics diags;
  ApplyOutcome first = Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  auto state = store_->LoadStage("s");
  ResourceInstanceAddr p{{}, {ResourceMode::Data, "fake_prefix", "p"}, {}};
  const state::ResourceInstanceState* row = state->FindResource(p);
  ASSERT_TRUE(row) << "the data source's read is in state";
  EXPECT_EQ(row->attributes.AsMap().at("value").AsString(), "pre");
  EXPECT_EQ(row->provider, "strata/fake");
  EXPECT_EQ(state->FindResource(Find(MakePlan(), "fake_thing.x")->addr)->dependencies,
            std::vector<std::string>{"data.fake_prefix.p"});

  Plan again = MakePlan();
  EXPECT_FALSE(again.HasChanges());
  ApplyOutcome noop = Apply(again, diags);
  EXPECT_EQ(noop.serial, first.serial) << "an unchanged read is not written again";

  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: pre-x }\n");
  Plan without = MakePlan();
  EXPECT_FALSE(Find(without, "data.fake_prefix.p")) << "a data source is never destroyed";
  EXPECT_FALSE(without.HasChanges());
  Apply(without, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_FALSE(store_->LoadStage("s")->FindResource(p)) << "gone from config, gone from state";
  EXPECT_EQ(cloud_->objects.size(), 1u);

  WriteConfig(with_data);
  Apply(MakePlan(), diags);
  ASSERT_TRUE(store_->LoadStage("s")->FindResource(p));
  ApplyOutcome destroyed = Apply(MakePlan(PlanMode::Destroy), diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(destroyed.destroyed, 1);
  EXPECT_TRUE(destroyed.remaining.empty());
  EXPECT_TRUE(store_->LoadStage("s")->resources.empty());
}

// A type that cannot look without creating: the destroy keeps the instance and says so.
TEST_F(PlanApplyTest, DestroyKeepsAnInterruptedCreateItCannotLookFor) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: opaque }\n");
  InterruptCreate(MakePlan(), "fake_thing.x", true);
  Diagnostics diags;
  ApplyOutcome out = Apply(MakePlan(PlanMode::Destroy), diags);
  ASSERT_EQ(out.remaining.size(), 1u);
  EXPECT_NE(out.remaining[0].find("fake_thing.x (an interrupted create"), std::string::npos) << out.remaining[0];
  ASSERT_EQ(store_->LoadStage("s")->resources.size(), 1u);
  EXPECT_TRUE(store_->LoadStage("s")->resources[0].IsInterruptedCreate());
}

// A saved plan applies only to the stage, state and configuration it was made from.
TEST_F(PlanApplyTest, SavedPlanFitsUntilItsStageStateOrConfigMoves) {
  WriteConfig(kTwoThings);
  Plan plan = MakePlan();
  EXPECT_EQ(SavedPlanStaleness(plan, "s", prior_, *loaded_), std::nullopt);
  EXPECT_EQ(SavedPlanStaleness(plan, "t", prior_, *loaded_), "it is a plan for stage \"s\", not \"t\"");
  Diagnostics diags;
  Apply(plan, diags);
  auto applied = store_->LoadStage("s");
  std::optional<std::string> moved = SavedPlanStaleness(plan, "s", *applied, *loaded_);
  ASSERT_TRUE(moved);
  EXPECT_NE(moved->find("moved on since the plan was made (serial 0 then, 1 now)"), std::string::npos) << *moved;

  Plan fresh = MakePlan();
  EXPECT_EQ(SavedPlanStaleness(fresh, "s", prior_, *loaded_), std::nullopt);
  WriteConfig(std::string(kTwoThings) + "# edited\n");
  Diagnostics load;
  std::unique_ptr<LoadedStage> edited = engine_->LoadStage(*project_, "s", load);
  EXPECT_EQ(SavedPlanStaleness(fresh, "s", prior_, *edited), "the stage's configuration files changed since the plan was made");
}

// Time functions as Terraform has them: plantimestamp() is the plan's time, known while
// planning and the same again at apply (a saved plan keeps it); timestamp() is unknown until
// apply.
TEST_F(PlanApplyTest, PlanTimestampIsThePlansTimeAndTimestampIsKnownAtApply) {
  WriteConfig(R"(
resources:
  planned:
    type: fake_thing
    properties: { name: "${plantimestamp()}" }
  applied:
    type: fake_thing
    properties: { name: "${timestamp()}" }
)");
  Plan plan = MakePlan();
  std::chrono::system_clock::time_point t;
  ASSERT_TRUE(base::ParseRfc3339(plan.timestamp, &t)) << plan.timestamp;
  EXPECT_EQ(Find(plan, "fake_thing.planned")->after.AsMap().at("name"), Value::String(plan.timestamp));
  EXPECT_TRUE(Find(plan, "fake_thing.applied")->after.AsMap().at("name").IsUnknown());
  plan.timestamp = "2001-02-03T04:05:06Z";  // as if the plan had been saved then
  for (auto& c : plan.changes) {
    if (c.addr.ToString() == "fake_thing.planned") c.after = attrs::With(c.after, "name", Value::String(plan.timestamp));
  }
  Diagnostics diags;
  Apply(plan, diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  auto state = store_->LoadStage("s");
  EXPECT_EQ(attrs::GetString(state->FindResource(Find(plan, "fake_thing.planned")->addr)->attributes, "name"),
            "2001-02-03T04:05:06Z");
  std::string applied = attrs::GetString(state->FindResource(Find(plan, "fake_thing.applied")->addr)->attributes, "name");
  EXPECT_TRUE(base::ParseRfc3339(applied, &t)) << applied;
}

// The engine's operation API: a StageRun holds the stage's lock from Open to its end, plans
// against the state it loaded and applies through the store.
TEST_F(PlanApplyTest, StageRunLocksPlansAppliesAndReleases) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  std::unique_ptr<StageRun> run = StageRun::Open(RunContext(), "s", "apply", std::chrono::milliseconds(0), diags);
  ASSERT_TRUE(run) << diags.items()[0].detail;
  EXPECT_EQ(run->stage(), "s");
  EXPECT_FALSE(run->prior().exists);

  Diagnostics second;
  EXPECT_EQ(StageRun::Open(RunContext(), "s", "plan", std::chrono::milliseconds(0), second), nullptr);
  ASSERT_TRUE(second.HasErrors());
  EXPECT_NE(second.items()[0].summary.find("lock"), std::string::npos) << second.items()[0].summary;

  PlanOutcome planned = run->MakePlan({}, diags);
  ASSERT_FALSE(diags.HasErrors());
  ASSERT_EQ(planned.plan.changes.size(), 2u);
  EXPECT_TRUE(run->CheckSavedPlan(planned.plan, "p.plan", diags));
  ApplyOutcome out = run->Apply(planned.plan, {}, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(out.added, 2);
  EXPECT_EQ(store_->LoadStage("s")->resources.size(), 2u);
  run.reset();

  Diagnostics after;
  std::unique_ptr<StageRun> next = StageRun::Open(RunContext(), "s", "plan", std::chrono::milliseconds(0), after);
  ASSERT_TRUE(next) << "the lock was released with the run";
  EXPECT_TRUE(next->prior().exists);
  EXPECT_FALSE(next->MakePlan({}, after).plan.HasChanges());
}

TEST_F(PlanApplyTest, StageRunRefusesAStaleSavedPlanNamingTheFile) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Plan saved = StageRun::Open(RunContext(), "s", "plan", std::chrono::milliseconds(0), diags)->MakePlan({}, diags).plan;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors());
  std::unique_ptr<StageRun> run = StageRun::Open(RunContext(), "s", "apply", std::chrono::milliseconds(0), diags);
  ASSERT_TRUE(run);
  EXPECT_FALSE(run->CheckSavedPlan(saved, "p.plan", diags));
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_EQ(diags.items()[0].summary, "Saved plan is stale");
  EXPECT_NE(diags.items()[0].detail.find("The plan in p.plan cannot be applied"), std::string::npos);
  EXPECT_NE(diags.items()[0].detail.find("strata plan s -out p.plan"), std::string::npos);
}

TEST_F(PlanApplyTest, StageRunWithBrokenConfigTakesNoLock) {
  WriteConfig("resources:\n  a:\n    type: fake_thing\n    properties: { name: ${nowhere.id} }\n");
  Diagnostics diags;
  EXPECT_EQ(StageRun::Open(RunContext(), "s", "apply", std::chrono::milliseconds(0), diags), nullptr);
  EXPECT_TRUE(diags.HasErrors());
  auto lock = store_->Lock({"s", "apply", std::chrono::milliseconds(0)});
  EXPECT_TRUE(lock.ok()) << "no lock left behind";
}

TEST_F(PlanApplyTest, DestroyThatLeavesObjectsSaysWhich) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: stuck }\n"
              "  y:\n    type: fake_thing\n    properties: { name: free }\n");
  Diagnostics diags;
  Apply(MakePlan(), diags);
  Diagnostics destroy_diags;
  ApplyOutcome out = Apply(MakePlan(PlanMode::Destroy), destroy_diags);
  EXPECT_TRUE(destroy_diags.HasErrors());
  EXPECT_EQ(out.remaining, std::vector<std::string>{"fake_thing.x"});
  EXPECT_EQ(store_->LoadStage("s")->resources.size(), 1u);
}

// A computed attribute changed outside Strata: the plan shows no resource change, only the
// output built on it; one apply records the refreshed value and the next plan is clean.
TEST_F(PlanApplyTest, ApplyRecordsWhatRefreshSawSoOutputDriftConverges) {
  WriteConfig("resources:\n  x:\n    type: fake_thing\n    properties: { name: solo }\n"
              "outputs:\n  status: { value: \"${x.status}\" }\n");
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(MakePlan().HasChanges());
  {
    std::lock_guard lock(cloud_->mu);
    ValueMap attrs = cloud_->objects.begin()->second.AsMap();
    attrs["status"] = Value::String("degraded");
    cloud_->objects.begin()->second = Value::Object(attrs);
  }
  Plan drifted = MakePlan();
  EXPECT_EQ(Find(drifted, "fake_thing.x")->action, Action::NoOp);
  ASSERT_TRUE(drifted.HasChanges()) << "the output changes";
  Apply(drifted, diags);
  EXPECT_FALSE(diags.HasErrors());
  auto state = store_->LoadStage("s");
  EXPECT_EQ(state->resources[0].attributes.AsMap().at("status").AsString(), "degraded");
  EXPECT_EQ(state->FindOutput("status")->value.AsString(), "degraded");
  EXPECT_FALSE(MakePlan().HasChanges()) << "one apply converges";
}

TEST_F(PlanApplyTest, RemovedFromConfigIsDestroyedAndTargetsLimitThePlan) {
  WriteConfig(kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig("resources:\n  a:\n    type: fake_thing\n    properties: { name: alpha, size: 3 }\n");
  Plan plan = MakePlan();
  EXPECT_EQ(Find(plan, "fake_thing.b")->action, Action::Delete);
  EXPECT_EQ(Find(plan, "fake_thing.b")->reason, ActionReason::DeleteBecauseNoResourceConfig);
  ApplyOutcome out = Apply(plan, diags);
  EXPECT_EQ(out.destroyed, 1);
  EXPECT_EQ(out.changed, 1);
  EXPECT_EQ(cloud_->objects.size(), 1u);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST_F(PlanApplyTest, DeletesOfRemovedResourcesUseTheirProviderBlock) {
  WriteConfig(std::string("providers:\n  fake: { endpoint: \"http://127.0.0.1:9\" }\n") + kTwoThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  WriteConfig("providers:\n  fake: { endpoint: \"http://127.0.0.1:9\" }\n");
  Plan plan = MakePlan();
  EXPECT_EQ(Find(plan, "fake_thing.a")->action, Action::Delete);
  ApplyOutcome out = Apply(plan, diags);
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(out.destroyed, 2);
  EXPECT_EQ(cloud_->delete_endpoints, (std::vector<std::string>{"http://127.0.0.1:9", "http://127.0.0.1:9"}));
  EXPECT_TRUE(cloud_->objects.empty());
}

// Ordering classes (Provider::OrderingClass): the instances of one for_each, and resources
// that do not refer to each other, are created lowest class first and deleted highest class
// first; a dependency the configuration states wins over a class.
constexpr const char* kClassedThings = R"(
resources:
  docs:
    type: fake_thing
    for_each: ${toset(["deploy-c4", "account-c2", "namespace-c0", "webhook-c6", "crd-c0", "custom-c5"])}
    properties: { name: "${each.key}" }
  alpha:
    type: fake_thing
    properties: { name: a-c9 }
  zulu:
    type: fake_thing
    properties: { name: z-c0 }
)";

// The classes of `calls` with `verb`, in call order.
std::vector<int> ClassesOf(const std::vector<std::string>& calls, const std::string& verb) {
  std::vector<int> out;
  for (const std::string& c : calls) {
    if (c.rfind(verb + " ", 0) == 0) out.push_back(c.back() - '0');
  }
  return out;
}

TEST_F(PlanApplyTest, OrderingClassesOrderCreatesUpAndDeletesDown) {
  WriteConfig(kClassedThings);
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  std::vector<int> creates = ClassesOf(cloud_->calls, "create");
  ASSERT_EQ(creates.size(), 8u);
  EXPECT_TRUE(std::is_sorted(creates.begin(), creates.end())) << ::testing::PrintToString(cloud_->calls);

  cloud_->calls.clear();
  Apply(MakePlan(PlanMode::Destroy), diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  std::vector<int> deletes = ClassesOf(cloud_->calls, "delete");
  ASSERT_EQ(deletes.size(), 8u);
  EXPECT_TRUE(std::is_sorted(deletes.rbegin(), deletes.rend())) << ::testing::PrintToString(cloud_->calls);
}

TEST_F(PlanApplyTest, ADependencyWinsOverOrderingClasses) {
  WriteConfig(R"(
resources:
  workload:
    type: fake_thing
    properties: { name: workload-c4 }
  namespace:
    type: fake_thing
    properties: { name: "ns-${workload.id}-c0" }
)");
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  ASSERT_EQ(cloud_->calls.size(), 2u);
  EXPECT_EQ(cloud_->calls[0], "create workload-c4");
  EXPECT_EQ(cloud_->calls[1].rfind("create ns-", 0), 0u);
}

// time_rotating with the builtin provider on a fake clock (2023-11-14T22:13:20Z): before the
// rotation time a plan is clean; after it, the refresh finds the object gone and the plan
// creates a new one (Terraform's Read removes it), and with -refresh=false the plan
// replaces it. A random_pet keyed on the rotating id is replaced with it.
class TimeRotatingPlanTest : public PlanApplyTest {
 protected:
  void RegisterProviders() override {
    // One random source for every provider instance, so that two creates draw other names.
    registry_.Register("builtin", [clock = clock_, random = std::make_shared<base::SeededRandom>(7)] {
      BuiltinEnv env = BuiltinEnv::Real();
      env.clock = clock;
      env.random = random;
      return std::make_unique<BuiltinProvider>(env);
    });
  }

  std::string StateOf(const std::string& address, const std::string& attribute) {
    auto state = store_->LoadStage("s");
    for (const auto& r : state->resources) {
      if (r.addr.ToString() == address) return attrs::GetString(r.attributes, attribute);
    }
    return "";
  }

  std::shared_ptr<base::FakeClock> clock_ =
      std::make_shared<base::FakeClock>(std::chrono::system_clock::from_time_t(1700000000));
};

TEST_F(TimeRotatingPlanTest, CleanBeforeTheRotationRecreatedAfterIt) {
  WriteConfig(R"(
resources:
  key_rotation:
    type: time_rotating
    properties: { rotation_days: 30 }
  key_name:
    type: random_pet
    properties:
      keepers: { rotated: "${key_rotation.id}" }
)");
  Diagnostics diags;
  Apply(MakePlan(), diags);
  ASSERT_FALSE(diags.HasErrors());
  EXPECT_EQ(StateOf("time_rotating.key_rotation", "rotation_rfc3339"), "2023-12-14T22:13:20Z");
  std::string pet = StateOf("random_pet.key_name", "id");
  ASSERT_FALSE(pet.empty());

  clock_->Advance(std::chrono::hours(24 * 29));
  EXPECT_FALSE(MakePlan().HasChanges()) << "a day before the rotation";

  clock_->Advance(std::chrono::hours(24 * 2));
  Plan rotated = MakePlan();
  ASSERT_TRUE(Find(rotated, "time_rotating.key_rotation") && Find(rotated, "random_pet.key_name"));
  EXPECT_EQ(Find(rotated, "time_rotating.key_rotation")->action, Action::Create);
  EXPECT_EQ(Find(rotated, "time_rotating.key_rotation")->reason, ActionReason::RecreateBecauseGone);
  EXPECT_EQ(Find(rotated, "random_pet.key_name")->action, Action::DeleteThenCreate) << "its keepers follow the rotation";
  Plan without_refresh = MakePlan(PlanMode::Normal, /*refresh=*/false);
  ASSERT_TRUE(Find(without_refresh, "time_rotating.key_rotation"));
  EXPECT_EQ(Find(without_refresh, "time_rotating.key_rotation")->action, Action::DeleteThenCreate);

  Apply(rotated, diags);
  ASSERT_FALSE(diags.HasErrors());
  EXPECT_EQ(StateOf("time_rotating.key_rotation", "rotation_rfc3339"), "2024-01-14T22:13:20Z");
  EXPECT_NE(StateOf("random_pet.key_name", "id"), pet);
  EXPECT_FALSE(MakePlan().HasChanges());
}

}  // namespace
}  // namespace strata
