#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class TerraformDataTest : public ProviderTest {};

TEST_F(TerraformDataTest, OutputMirrorsInput) {
  PlanResult plan = Plan("terraform_data", Value(), Obj({{"input", S("a")}}));
  EXPECT_TRUE(At(plan.planned, "output").IsUnknown());
  EXPECT_TRUE(At(plan.planned, "id").IsUnknown());
  Value state = Create("terraform_data", Obj({{"input", S("a")}}));
  EXPECT_EQ(At(state, "output").AsString(), "a");
  EXPECT_EQ(At(state, "id").AsString().size(), 36u);  // a UUID
}

TEST_F(TerraformDataTest, NullInputPlansNullOutput) {
  PlanResult plan = Plan("terraform_data", Value(), Obj({}));
  EXPECT_TRUE(At(plan.planned, "output").IsNull());
}

TEST_F(TerraformDataTest, InputChangeUpdatesInPlace) {
  Value state = Create("terraform_data", Obj({{"input", S("a")}}));
  Value config = Obj({{"input", S("b")}});
  PlanResult plan = Plan("terraform_data", state, config);
  EXPECT_TRUE(plan.requires_replace.empty());
  EXPECT_TRUE(At(plan.planned, "output").IsUnknown());
  EXPECT_EQ(At(plan.planned, "id").AsString(), At(state, "id").AsString());
  ApplyResult updated = provider_->UpdateResource(ctx_, "terraform_data", state, plan.planned);
  ASSERT_FALSE(updated.diags.HasErrors());
  EXPECT_EQ(At(updated.state, "output").AsString(), "b");
  EXPECT_EQ(At(updated.state, "id").AsString(), At(state, "id").AsString());
}

TEST_F(TerraformDataTest, TriggersReplaceChangeReplaces) {
  Value state = Create("terraform_data", Obj({{"triggers_replace", S("v1")}}));
  PlanResult same = Plan("terraform_data", state, Obj({{"triggers_replace", S("v1")}}));
  EXPECT_TRUE(same.requires_replace.empty());
  PlanResult plan = Plan("terraform_data", state, Obj({{"triggers_replace", S("v2")}}));
  EXPECT_TRUE(Replaces(plan, "triggers_replace"));
  EXPECT_TRUE(At(plan.planned, "id").IsUnknown());
}

TEST_F(TerraformDataTest, ImportTakesTheId) {
  ApplyResult imported = provider_->ImportResource(ctx_, "terraform_data", "abc");
  ASSERT_FALSE(imported.diags.HasErrors());
  EXPECT_EQ(At(imported.state, "id").AsString(), "abc");
}

}  // namespace
}  // namespace strata::testing
