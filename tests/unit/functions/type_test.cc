#include <gtest/gtest.h>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(TypeFunctionsTest, ToStringConvertsPrimitives) {
  EXPECT_EQ(Call("tostring", {S("hello")}), S("hello"));
  EXPECT_EQ(Call("tostring", {N(1)}), S("1"));
  EXPECT_EQ(Call("tostring", {N(1.5)}), S("1.5"));
  EXPECT_EQ(Call("tostring", {B(true)}), S("true"));
  EXPECT_TRUE(Call("tostring", {Value::Null()}).IsNull());
  EXPECT_EQ(CallError("tostring", {T({})}).message, "cannot convert tuple to string");
}

TEST(TypeFunctionsTest, ToNumberParsesDecimalStrings) {
  EXPECT_EQ(Call("tonumber", {N(1)}), N(1));
  EXPECT_EQ(Call("tonumber", {S("1")}), N(1));
  EXPECT_EQ(Call("tonumber", {S("-2.5e2")}), N(-250));
  EXPECT_TRUE(Call("tonumber", {Value::Null()}).IsNull());
  EXPECT_EQ(
      CallError("tonumber", {S("no")}).message,
      "cannot convert \"no\" to number; given string must be a decimal representation of a number");
  EXPECT_EQ(CallError("tonumber", {B(true)}).message, "cannot convert bool to number");
}

TEST(TypeFunctionsTest, ToBoolAcceptsOnlyTrueAndFalse) {
  EXPECT_EQ(Call("tobool", {B(true)}), B(true));
  EXPECT_EQ(Call("tobool", {S("false")}), B(false));
  EXPECT_TRUE(Call("tobool", {Value::Null()}).IsNull());
  EXPECT_EQ(CallError("tobool", {S("no")}).message,
            "cannot convert \"no\" to bool; only the strings \"true\" or \"false\" are allowed");
  EXPECT_EQ(CallError("tobool", {N(1)}).message, "cannot convert number to bool");
}

TEST(TypeFunctionsTest, ToListUnifiesElementTypes) {
  Value v = Call("tolist", {T({S("a"), S("b"), S("c")})});
  EXPECT_EQ(v.kind(), ValueKind::List);
  EXPECT_EQ(v, Strings({"a", "b", "c"}));
  EXPECT_EQ(Call("tolist", {T({S("a"), N(1), B(true)})}), Strings({"a", "1", "true"}));
  EXPECT_EQ(Call("tolist", {Set({N(2), N(1)})}), L({N(1), N(2)}));
  EXPECT_EQ(CallError("tolist", {T({S("a"), T({})})}).message,
            "all elements must have the same type");
  EXPECT_EQ(CallError("tolist", {M({})}).message, "cannot convert map to list");
}

TEST(TypeFunctionsTest, ToSetSortsAndRemovesDuplicates) {
  Value v = Call("toset", {T({S("c"), S("b"), S("b")})});
  EXPECT_EQ(v.kind(), ValueKind::Set);
  EXPECT_EQ(v.AsList(), (ValueList{S("b"), S("c")}));
  EXPECT_EQ(Call("toset", {T({S("a"), N(1), S("1")})}), Set({S("1"), S("a")}));
}

TEST(TypeFunctionsTest, ToMapUnifiesValues) {
  Value v = Call("tomap", {O({{"a", N(1)}, {"b", N(2)}})});
  EXPECT_EQ(v.kind(), ValueKind::Map);
  EXPECT_EQ(v, M({{"a", N(1)}, {"b", N(2)}}));
  EXPECT_EQ(Call("tomap", {O({{"a", S("foo")}, {"b", B(true)}})}),
            M({{"a", S("foo")}, {"b", S("true")}}));
  EXPECT_EQ(CallError("tomap", {T({})}).message, "cannot convert tuple to map");
}

TEST(TypeFunctionsTest, SensitiveMarksTheValue) {
  Value v = Call("sensitive", {S("x")});
  EXPECT_TRUE(v.IsSensitive());
  EXPECT_EQ(v, S("x"));
  EXPECT_TRUE(Call("sensitive", {Value::Unknown()}).IsSensitive());
}

TEST(TypeFunctionsTest, NonsensitiveRemovesTheMark) {
  Value v = Call("nonsensitive", {S("x").MarkSensitive()});
  EXPECT_FALSE(v.IsSensitive());
  EXPECT_EQ(v, S("x"));
  EXPECT_FALSE(Call("nonsensitive", {S("plain")}).IsSensitive());
  EXPECT_TRUE(Call("nonsensitive", {Value::Unknown().MarkSensitive()}).IsUnknown());
}

TEST(TypeFunctionsTest, IssensitiveReportsTheMark) {
  Value yes = Call("issensitive", {S("x").MarkSensitive()});
  EXPECT_EQ(yes, B(true));
  EXPECT_FALSE(yes.IsSensitive());
  EXPECT_EQ(Call("issensitive", {S("x")}), B(false));
  EXPECT_TRUE(Call("issensitive", {Value::Unknown()}).IsUnknown());
}

TEST(TypeFunctionsTest, ConversionsKeepSensitivity) {
  EXPECT_TRUE(Call("tostring", {N(5).MarkSensitive()}).IsSensitive());
  EXPECT_TRUE(Call("tolist", {T({S("a").MarkSensitive()})}).IsSensitive());
}

TEST(TypeFunctionsTest, UnknownArgumentGivesUnknownResult) {
  EXPECT_TRUE(Call("tostring", {Value::Unknown()}).IsUnknown());
}

// Strata has no ephemeral values: ephemeralasnull returns its argument as it is.
TEST(TypeFunctionsTest, EphemeralasnullKeepsNonEphemeralValues) {
  EXPECT_EQ(Call("ephemeralasnull", {S("a")}), S("a"));
  EXPECT_EQ(Call("ephemeralasnull", {O({{"a", N(1)}})}), O({{"a", N(1)}}));
  EXPECT_TRUE(Call("ephemeralasnull", {Value::Unknown()}).IsUnknown());
  EXPECT_TRUE(Call("ephemeralasnull", {S("s").MarkSensitive()}).IsSensitive());
  EXPECT_TRUE(Call("ephemeralasnull", {Value::Null()}).IsNull());
}

}  // namespace
}  // namespace strata
