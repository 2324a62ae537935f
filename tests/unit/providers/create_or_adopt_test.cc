// ResourceType::CreateOrAdopt, the provider side of an interrupted create's recovery: an
// ordinary create creates; a resumed create looks first, adopts what it finds (brought to
// the plan, with what the provider computes taken from the found object), and creates only
// when nothing is found.
#include <gtest/gtest.h>

#include "providers/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

class Probe final : public ResourceType {
 public:
  Probe() = default;
  ResourceSchema Schema() const override {
    return ManagedSchema("probe", {{"name", Required("string")}, {"arn", Computed("string")}});
  }
  CreateRecovery Recovery() const override { return CreateRecovery::CreateTag; }
  ApplyResult Create(const OperationContext&, const Value& planned) override {
    ++creates;
    return {With(With(planned, "id", Value::String("new")), "arn", Value::String("arn:new")), {}};
  }
  ApplyResult Update(const OperationContext&, const Value& prior, const Value& planned) override {
    updated_from = prior;
    updated_to = planned;
    return {planned, {}};
  }

  std::optional<Value> existing;  // what FindCreated finds
  int creates = 0;
  int finds = 0;
  Value updated_from, updated_to;

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value&) override {
    ++finds;
    last_token = ctx.idempotency_token;
    if (!existing) return {Value(), true, {}};
    return {*existing, false, {}};
  }

 public:
  std::string last_token;
};

Value Planned() {
  return Value::Object({{"name", Value::String("a")}, {"id", Value::Unknown()}, {"arn", Value::Unknown()}});
}

TEST(CreateOrAdoptTest, AnOrdinaryCreateDoesNotLook) {
  Probe p;
  OperationContext ctx;
  ctx.idempotency_token = "t1";
  ApplyResult r = p.CreateOrAdopt(ctx, Planned());
  EXPECT_EQ(p.finds, 0);
  EXPECT_EQ(p.creates, 1);
  EXPECT_EQ(r.state.AsMap().at("id").AsString(), "new");
}

TEST(CreateOrAdoptTest, AResumedCreateAdoptsWhatTheInterruptedOneMade) {
  Probe p;
  p.existing = Value::Object({{"name", Value::String("old-name")}, {"id", Value::String("found-1")},
                              {"arn", Value::String("arn:found-1")}});
  OperationContext ctx;
  ctx.idempotency_token = "t1";
  ctx.resume_interrupted_create = true;
  ApplyResult r = p.CreateOrAdopt(ctx, Planned());
  EXPECT_EQ(p.finds, 1);
  EXPECT_EQ(p.last_token, "t1");
  EXPECT_EQ(p.creates, 0) << "nothing is made twice";
  EXPECT_EQ(p.updated_from.AsMap().at("id").AsString(), "found-1");
  // Brought to the plan; what only the provider knows comes from the found object.
  EXPECT_EQ(p.updated_to.AsMap().at("name").AsString(), "a");
  EXPECT_EQ(p.updated_to.AsMap().at("id").AsString(), "found-1");
  EXPECT_EQ(p.updated_to.AsMap().at("arn").AsString(), "arn:found-1");
  EXPECT_EQ(r.state.AsMap().at("id").AsString(), "found-1");
}

TEST(CreateOrAdoptTest, AResumedCreateThatFindsNothingCreates) {
  Probe p;
  OperationContext ctx;
  ctx.idempotency_token = "t2";
  ctx.resume_interrupted_create = true;
  ApplyResult r = p.CreateOrAdopt(ctx, Planned());
  EXPECT_EQ(p.finds, 1);
  EXPECT_EQ(p.creates, 1);
  EXPECT_EQ(r.state.AsMap().at("id").AsString(), "new");
}

TEST(CreateOrAdoptTest, TheRecoveryIsPublishedInTheSchema) {
  EXPECT_EQ(Probe().PublishedSchema().create_recovery, CreateRecovery::CreateTag);
  EXPECT_EQ(Probe().Schema().create_recovery, CreateRecovery::Unspecified);
}

}  // namespace
}  // namespace strata
