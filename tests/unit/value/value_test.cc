#include "engine/value/value.h"

#include <gtest/gtest.h>

#include "engine/value/format.h"
#include "engine/value/type.h"

namespace strata {
namespace {

TEST(ValueTest, SetsAreSortedAndUnique) {
  Value s = Value::Set({Value::String("b"), Value::String("a"), Value::String("b")});
  ASSERT_EQ(s.AsList().size(), 2u);
  EXPECT_EQ(s.AsList()[0].AsString(), "a");
}

TEST(ValueTest, UnknownEqualsNothing) {
  EXPECT_FALSE(Value::Unknown().Equals(Value::Unknown()));
}

TEST(ValueTest, SensitiveMarkIsFoundDeep) {
  Value v = Value::Object({{"a", Value::Tuple({Value::String("x").MarkSensitive()})}});
  EXPECT_TRUE(v.ContainsSensitive());
  EXPECT_FALSE(v.DeepUnmark().ContainsSensitive());
}

TEST(ValueTest, NumbersFormatLikeTerraform) {
  EXPECT_EQ(FormatNumber(3), "3");
  EXPECT_EQ(FormatNumber(0.5), "0.5");
  EXPECT_EQ(FormatNumber(-12), "-12");
  EXPECT_EQ(FormatNumber(1e20), "100000000000000000000");
}

TEST(ValueTest, FormatMatchesTerraformConsole) {
  Value v = Value::Object({{"name", Value::String("a")}, {"list", Value::List({Value::Number(1)})}});
  EXPECT_EQ(FormatValue(v), "{\n  list = tolist([\n    1,\n  ])\n  name = \"a\"\n}");
  EXPECT_EQ(FormatValue(Value::String("s").MarkSensitive()), "(sensitive value)");
  EXPECT_EQ(FormatValue(Value::Unknown()), "(known after apply)");
}

TEST(TypeTest, ParsesNestedObjectWithOptionalDefault) {
  auto r = ParseType("list(object({ name = string, size = optional(number, 10) }))");
  ASSERT_TRUE(r.type) << r.error;
  EXPECT_EQ(r.type->ToString(), "list(object({name=string, size=optional(number)}))");
  auto c = ConvertValue(Value::Tuple({Value::Object({{"name", Value::String("x")}})}), *r.type);
  ASSERT_TRUE(c.ok()) << c.error;
  EXPECT_EQ(c.value.AsList()[0].AsMap().at("size").AsNumber(), 10);
}

TEST(TypeTest, ConversionErrorsNameThePath) {
  auto t = ParseType("object({ size = number })");
  ASSERT_TRUE(t.type);
  auto c = ConvertValue(Value::Object({{"size", Value::String("big")}}), *t.type);
  EXPECT_EQ(c.error, "attribute \"size\": a number is required, got the string \"big\"");
  auto missing = ConvertValue(Value::Object({}), *t.type);
  EXPECT_EQ(missing.error, "attribute \"size\" is required");
}

TEST(TypeTest, UnknownTypeNameIsAnError) {
  auto r = ParseType("lst(string)");
  EXPECT_FALSE(r.type);
  EXPECT_NE(r.error.find("unknown type \"lst\""), std::string::npos);
}

}  // namespace
}  // namespace strata
