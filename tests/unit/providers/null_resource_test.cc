#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class NullResourceTest : public ProviderTest {};

TEST_F(NullResourceTest, CreatePlansUnknownIdAndCreatesOne) {
  Value config = Obj({{"triggers", StrMap({{"v", "1"}})}});
  PlanResult plan = Plan("null_resource", Value(), config);
  ASSERT_FALSE(plan.diags.HasErrors());
  EXPECT_TRUE(At(plan.planned, "id").IsUnknown());
  EXPECT_TRUE(plan.requires_replace.empty());
  Value state = Create("null_resource", config);
  EXPECT_TRUE(At(state, "id").IsString());
  EXPECT_FALSE(At(state, "id").AsString().empty());
}

TEST_F(NullResourceTest, TriggerChangeReplacesAndSameConfigIsNoOp) {
  Value config = Obj({{"triggers", StrMap({{"v", "1"}})}});
  Value state = Create("null_resource", config);
  PlanResult same = Plan("null_resource", state, config);
  EXPECT_TRUE(same.requires_replace.empty());
  EXPECT_TRUE(same.planned.Equals(state));

  PlanResult changed = Plan("null_resource", state, Obj({{"triggers", StrMap({{"v", "2"}})}}));
  EXPECT_TRUE(Replaces(changed, "triggers"));
  EXPECT_TRUE(At(changed.planned, "id").IsUnknown());
}

TEST_F(NullResourceTest, ReadKeepsStateAndDestroyPlansNull) {
  Value state = Create("null_resource", Obj({}));
  ReadResult read = provider_->ReadResource(ctx_, "null_resource", state);
  EXPECT_FALSE(read.gone);
  EXPECT_TRUE(read.state.Equals(state));
  PlanResult destroy = provider_->PlanResourceChange(ctx_, "null_resource", state, Value(), Value());
  EXPECT_TRUE(destroy.planned.IsNull());
  EXPECT_FALSE(provider_->DeleteResource(ctx_, "null_resource", state).diags.HasErrors());
  EXPECT_TRUE(provider_->ImportResource(ctx_, "null_resource", "1").diags.HasErrors());
}

TEST_F(NullResourceTest, UnknownTypeIsAnError) {
  PlanResult plan = provider_->PlanResourceChange(ctx_, "nope", Value(), Obj({}), Obj({}));
  EXPECT_TRUE(plan.diags.HasErrors());
}

}  // namespace
}  // namespace strata::testing
