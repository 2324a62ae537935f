#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(NumericFunctionsTest, MinAndMax) {
  EXPECT_EQ(Call("min", {N(12), N(54), N(3)}), N(3));
  EXPECT_EQ(Call("max", {N(12), N(54), N(3)}), N(54));
  EXPECT_EQ(Call("max", {N(-1.5)}), N(-1.5));
  EXPECT_EQ(Call("min", {S("7"), N(9)}), N(7));
  EXPECT_EQ(CallError("min", {}).message, "min() takes at least 1 arguments, got 0");
  FunctionError e = CallError("max", {N(1), S("x")});
  EXPECT_EQ(e.arg_index, 1);
  EXPECT_NE(e.message.find("a number is required"), std::string::npos);
}

TEST(NumericFunctionsTest, AbsCeilFloorSignum) {
  EXPECT_EQ(Call("abs", {N(-12.4)}), N(12.4));
  EXPECT_EQ(Call("abs", {N(0)}), N(0));
  EXPECT_EQ(Call("ceil", {N(4.1)}), N(5));
  EXPECT_EQ(Call("ceil", {N(-4.1)}), N(-4));
  EXPECT_EQ(Call("floor", {N(4.9)}), N(4));
  EXPECT_EQ(Call("floor", {N(-4.1)}), N(-5));
  EXPECT_EQ(Call("signum", {N(-13)}), N(-1));
  EXPECT_EQ(Call("signum", {N(0)}), N(0));
  EXPECT_EQ(Call("signum", {N(344)}), N(1));
}

TEST(NumericFunctionsTest, LogAndPow) {
  EXPECT_EQ(Call("log", {N(16), N(2)}), N(4));
  EXPECT_NEAR(Call("log", {N(50), N(10)}).AsNumber(), 1.69897, 1e-5);
  EXPECT_EQ(Call("pow", {N(3), N(2)}), N(9));
  EXPECT_EQ(Call("pow", {N(4), N(0)}), N(1));
  EXPECT_EQ(Call("pow", {N(2), N(-1)}), N(0.5));
}

TEST(NumericFunctionsTest, ParseintBases) {
  EXPECT_EQ(Call("parseint", {S("100"), N(10)}), N(100));
  EXPECT_EQ(Call("parseint", {S("FF"), N(16)}), N(255));
  EXPECT_EQ(Call("parseint", {S("-10"), N(16)}), N(-16));
  EXPECT_EQ(Call("parseint", {S("1011111011101111"), N(2)}), N(48879));
  EXPECT_EQ(Call("parseint", {S("aA"), N(62)}), N(10 * 62 + 36));
  EXPECT_EQ(Call("parseint", {S("zz"), N(36)}), N(1295));
}

TEST(NumericFunctionsTest, ParseintErrors) {
  EXPECT_EQ(CallError("parseint", {S("12"), N(2)}).message,
            "cannot parse \"12\" as a base 2 integer");
  EXPECT_EQ(CallError("parseint", {S(""), N(10)}).arg_index, 0);
  EXPECT_EQ(CallError("parseint", {S("1.5"), N(10)}).arg_index, 0);
  EXPECT_EQ(CallError("parseint", {S("1"), N(1)}).message,
            "base must be a whole number between 2 and 62 inclusive");
  EXPECT_EQ(CallError("parseint", {S("1"), N(63)}).arg_index, 1);
}

TEST(NumericFunctionsTest, SensitiveArgumentGivesSensitiveResult) {
  Value v = Call("max", {N(1), N(2).MarkSensitive()});
  EXPECT_TRUE(v.IsSensitive());
  EXPECT_EQ(v, N(2));
}

TEST(NumericFunctionsTest, UnknownArgumentGivesUnknownResult) {
  EXPECT_TRUE(Call("max", {N(1), Value::Unknown()}).IsUnknown());
}

}  // namespace
}  // namespace strata
