// Refresh in batches, through the engine API (PlanStage, ApplyPlan) with a provider that reads
// one of its types many objects per call: a no-op plan reads that type in a few
// ReadResources calls grouped by provider block, side by side; an object gone or failing in
// a batch is gone or failing alone; a type without batch reads, an instance with its own
// read timeout and a -target plan are read one by one; a destroy plan batches too.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "providers/attributes.h"
#include "tests/unit/core/one_stage_fixture.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct BatchCloud {
  std::mutex mu;
  std::map<std::string, Value> objects;  // id -> state
  int next_id = 1;
  //! Each ReadResources call: the endpoint of the provider block it came through, and how
  //! many objects it read.
  std::vector<std::pair<std::string, size_t>> batch_calls;
  std::vector<std::string> single_reads;  // names read with ReadResource
  std::set<std::string> failing;          // names whose read fails
  std::chrono::milliseconds batch_delay{0};
  std::atomic<int> reading{0};
  std::atomic<int> most_reading{0};
};

class BatchProvider : public Provider {
 public:
  explicit BatchProvider(std::shared_ptr<BatchCloud> cloud) : cloud_(std::move(cloud)) {}
  std::string Name() const override { return "bat"; }
  ProviderSchema Schema() const override {
    using namespace attrs;
    ProviderSchema s;
    s.provider.type = "bat";
    s.provider.attributes["endpoint"] = attrs::Optional("string");
    for (const char* type : {"bat_thing", "bat_single"}) {
      s.resources.push_back(ManagedSchema(type, {{"name", Required("string")}, {"id", Computed("string")}}));
      s.resources.back().create_recovery = CreateRecovery::ClientToken;
    }
    return s;
  }
  Diagnostics Configure(const OperationContext&, const Value& settings) override {
    endpoint_ = attrs::GetString(settings, "endpoint");
    return {};
  }
  bool ReadsInBatches(const std::string& type) const override { return type == "bat_thing"; }
  ReadResult ReadResource(const OperationContext&, const std::string&, const Value& prior) override {
    std::lock_guard lock(cloud_->mu);
    cloud_->single_reads.push_back(attrs::GetString(prior, "name"));
    return ReadLocked(prior);
  }
  std::vector<ReadResult> ReadResources(const OperationContext&, const std::string&,
                                        const std::vector<Value>& priors) override {
    int now = ++cloud_->reading;
    for (int most = cloud_->most_reading; now > most && !cloud_->most_reading.compare_exchange_weak(most, now);) {
    }
    std::this_thread::sleep_for(cloud_->batch_delay);
    --cloud_->reading;
    std::lock_guard lock(cloud_->mu);
    cloud_->batch_calls.emplace_back(endpoint_, priors.size());
    std::vector<ReadResult> out;
    for (const Value& prior : priors) out.push_back(ReadLocked(prior));
    return out;
  }
  PlanResult PlanResourceChange(const OperationContext&, const std::string&, const Value&, const Value& proposed,
                                const Value&) override {
    return {proposed, {}, {}, {}};
  }
  ApplyResult CreateResource(const OperationContext&, const std::string&, const Value& planned) override {
    std::lock_guard lock(cloud_->mu);
    std::string id = "b-" + std::to_string(cloud_->next_id++);
    Value state = attrs::With(planned, "id", Value::String(id));
    cloud_->objects[id] = state;
    return {state, {}};
  }
  ApplyResult UpdateResource(const OperationContext&, const std::string&, const Value&, const Value& planned) override {
    return {planned, {}};
  }
  DeleteResult DeleteResource(const OperationContext&, const std::string&, const Value& prior) override {
    std::lock_guard lock(cloud_->mu);
    cloud_->objects.erase(attrs::GetString(prior, "id"));
    return {};
  }
  ApplyResult ImportResource(const OperationContext&, const std::string&, const std::string&) override { return {}; }
  ReadResult ReadDataSource(const OperationContext&, const std::string&, const Value&) override { return {}; }

 private:
  ReadResult ReadLocked(const Value& prior) {
    ReadResult r;
    std::string name = attrs::GetString(prior, "name");
    if (cloud_->failing.count(name)) {
      r.diags.Error("Read refused", "the cloud refused to read " + name);
      return r;
    }
    auto it = cloud_->objects.find(attrs::GetString(prior, "id"));
    if (it == cloud_->objects.end()) r.gone = true;
    else r.state = it->second;
    return r;
  }

  std::shared_ptr<BatchCloud> cloud_;
  std::string endpoint_;
};

class RefreshBatchesTest : public testing_support::OneStageFixture {
 protected:
  void RegisterProviders() override {
    registry_.Register("bat", [cloud = cloud_] { return std::make_unique<BatchProvider>(cloud); });
  }

  Plan MakePlan(Diagnostics& diags, PlanMode mode = PlanMode::Normal, std::vector<std::string> targets = {}) {
    PlanRequest req = PlanRequestFor(mode, diags);
    req.targets = std::move(targets);
    req.options.parallelism = 10;
    return PlanStage(req, diags).plan;
  }
  Plan MakePlan(PlanMode mode = PlanMode::Normal) {
    Diagnostics diags;
    Plan plan = MakePlan(diags, mode);
    EXPECT_FALSE(diags.HasErrors()) << diags.items()[0].summary << ": " << diags.items()[0].detail;
    return plan;
  }
  void Apply(const Plan& plan) {
    Diagnostics diags;
    ApplyLocked(plan, diags);
    ASSERT_FALSE(diags.HasErrors()) << diags.items()[0].detail;
  }
  void ResetCounts() {
    cloud_->batch_calls.clear();
    cloud_->single_reads.clear();
  }
  size_t BatchedObjects() const {
    size_t n = 0;
    for (const auto& [endpoint, size] : cloud_->batch_calls) n += size;
    return n;
  }
  static bool AllNoOp(const Plan& plan) {
    return std::all_of(plan.changes.begin(), plan.changes.end(), [](const auto& c) { return c.action == Action::NoOp; });
  }

  std::shared_ptr<BatchCloud> cloud_ = std::make_shared<BatchCloud>();
};

// 300 things under two provider blocks, 2 things that depend on them, 5 of a type without
// batch reads.
constexpr const char* kMany = R"(
providers:
  bat: { endpoint: "one" }
  bat.other: { endpoint: "two" }
resources:
  many:
    type: bat_thing
    count: 200
    properties: { name: "m${count.index}" }
  west:
    type: bat_thing
    provider: bat.other
    count: 100
    properties: { name: "w${count.index}" }
  after:
    type: bat_thing
    count: 2
    properties: { name: "after-${many[count.index].id}" }
  single:
    type: bat_single
    count: 5
    properties: { name: "s${count.index}" }
)";

TEST_F(RefreshBatchesTest, NoOpPlanReadsEachTypeInBatchesPerProviderBlock) {
  WriteConfig(kMany);
  Apply(MakePlan());
  ResetCounts();
  cloud_->batch_delay = std::chrono::milliseconds(30);
  Plan plan = MakePlan();
  EXPECT_EQ(plan.changes.size(), 307u);
  EXPECT_TRUE(AllNoOp(plan));
  // One read of every batched object, none twice; 20 objects a batch at -parallelism=10.
  EXPECT_EQ(BatchedObjects(), 302u);
  EXPECT_LE(cloud_->batch_calls.size(), 16u);
  size_t one = 0, two = 0;
  for (const auto& [endpoint, size] : cloud_->batch_calls) {
    EXPECT_LE(size, 200u);
    (endpoint == "one" ? one : two) += size;
  }
  EXPECT_EQ(one, 202u) << "many and after, through the default block";
  EXPECT_EQ(two, 100u) << "west, through bat.other: a batch never mixes provider blocks";
  EXPECT_EQ(cloud_->single_reads.size(), 5u) << "bat_single has no batch read: one call each";
  EXPECT_GT(cloud_->most_reading.load(), 1) << "the batches ran one at a time";
}

TEST_F(RefreshBatchesTest, GoneAndFailingObjectsAnswerAlone) {
  WriteConfig(kMany);
  Apply(MakePlan());
  {
    std::lock_guard lock(cloud_->mu);
    for (auto it = cloud_->objects.begin(); it != cloud_->objects.end(); ++it) {
      if (attrs::GetString(it->second, "name") == "m7") {
        cloud_->objects.erase(it);
        break;
      }
    }
    cloud_->failing.insert("w3");
  }
  ResetCounts();
  Diagnostics diags;
  Plan plan = MakePlan(diags);
  ASSERT_EQ(diags.ErrorCount(), 1u);
  EXPECT_EQ(diags.items()[0].summary, "Read refused");
  EXPECT_NE(diags.items()[0].detail.find("w3"), std::string::npos);
  EXPECT_EQ(Find(plan, "bat_thing.many[7]")->action, Action::Create) << "deleted outside: created again";
  EXPECT_EQ(Find(plan, "bat_thing.many[8]")->action, Action::NoOp);
  EXPECT_EQ(Find(plan, "bat_thing.west[4]")->action, Action::NoOp) << "w3's error is w3's alone";
  EXPECT_EQ(Find(plan, "bat_thing.west[3]"), nullptr) << "nothing planned for the object that could not be read";
}

TEST_F(RefreshBatchesTest, ReadTimeoutAndTargetReadAlone) {
  WriteConfig(R"(
resources:
  timed:
    type: bat_thing
    count: 3
    properties: { name: "t${count.index}" }
    timeouts: { read: 5m }
  plain:
    type: bat_thing
    count: 3
    properties: { name: "p${count.index}" }
)");
  Apply(MakePlan());
  ResetCounts();
  EXPECT_TRUE(AllNoOp(MakePlan()));
  EXPECT_EQ(cloud_->single_reads.size(), 3u) << "an instance with its own read deadline is read alone";
  EXPECT_EQ(BatchedObjects(), 3u);
  ResetCounts();
  Diagnostics diags;
  MakePlan(diags, PlanMode::Normal, {"bat_thing.plain[1]"});
  EXPECT_FALSE(diags.HasErrors());
  EXPECT_EQ(cloud_->single_reads, std::vector<std::string>{"p1"}) << "-target reads only what it plans";
  EXPECT_TRUE(cloud_->batch_calls.empty());
}

TEST_F(RefreshBatchesTest, DestroyAndOrphanPlansReadInBatches) {
  WriteConfig(kMany);
  Apply(MakePlan());
  ResetCounts();
  cloud_->batch_delay = std::chrono::milliseconds(30);
  Plan destroy = MakePlan(PlanMode::Destroy);
  EXPECT_EQ(destroy.changes.size(), 307u);
  EXPECT_EQ(BatchedObjects(), 302u);
  EXPECT_LE(cloud_->batch_calls.size(), 16u);
  EXPECT_EQ(cloud_->single_reads.size(), 5u);
  EXPECT_GT(cloud_->most_reading.load(), 1) << "the destroy plan's batches ran one at a time";
  WriteConfig("providers:\n  bat: { endpoint: \"one\" }\n  bat.other: { endpoint: \"two\" }\nresources: {}\n");
  ResetCounts();
  Plan orphans = MakePlan();
  EXPECT_EQ(orphans.changes.size(), 307u);
  for (const auto& c : orphans.changes) EXPECT_EQ(c.action, Action::Delete);
  EXPECT_EQ(BatchedObjects(), 302u) << "orphans are read in batches too";
}

}  // namespace
}  // namespace strata
