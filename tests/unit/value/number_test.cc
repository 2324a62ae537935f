// Number: Terraform's precision (cty's 512-bit big.Float) with a double fast path. The
// expected texts are what `terraform console` (1.11) prints for the same expressions.
#include "engine/value/number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/value/json.h"
#include "engine/value/value.h"

namespace strata {
namespace {

Number Lit(const char* text) {
  auto n = Number::Parse(text);
  EXPECT_TRUE(n) << text;
  return n.value_or(Number());
}

std::string Digits(char first, size_t zeros) { return std::string(1, first) + std::string(zeros, '0'); }

TEST(NumberTest, SmallLiteralsAndExactResultsStayOnTheFastPath) {
  EXPECT_TRUE(Lit("42").IsFast());
  EXPECT_TRUE(Lit("0.5").IsFast());
  EXPECT_TRUE(Lit("1e20").IsFast());
  EXPECT_TRUE((Lit("2") + Lit("3")).IsFast());
  EXPECT_TRUE((Lit("6") * Lit("7")).IsFast());
  EXPECT_TRUE((Lit("1") / Lit("4")).IsFast());
  EXPECT_TRUE((Lit("-7").Mod(Lit("3"))).IsFast());
  EXPECT_EQ((Lit("1") / Lit("4")).ToString(), "0.25");
  EXPECT_EQ((Lit("-3") - Lit("0.5")).ToString(), "-3.5");
  // 2^-30 is a double too, whose 30 exact digits are its text at 512 bits.
  EXPECT_EQ((Lit("1") / Lit("1073741824")).ToString(), "0.000000000931322574615478515625");
  EXPECT_EQ((Lit("2") + Lit("3")).ToString(), "5");
  EXPECT_EQ(Lit("-7").Mod(Lit("3")).ToString(), "-1");
  // An exact result of big operands comes back to a double.
  Number one = Lit("9007199254740993") - Lit("9007199254740992");
  EXPECT_TRUE(one.IsFast());
  EXPECT_EQ(one.ToString(), "1");
}

TEST(NumberTest, DecimalsAreRoundedTo512BitsNotToADouble) {
  Number tenth = Lit("0.1");
  EXPECT_FALSE(tenth.IsFast());  // 0.1 is no double
  EXPECT_EQ(tenth.ToString(), "0.1");
  EXPECT_EQ((tenth + Lit("0.2")).ToString(), "0.3");
  EXPECT_TRUE((tenth + Lit("0.2")).Equals(Lit("0.3")));
  EXPECT_EQ((Lit("1") / Lit("3")).ToString(),
            "0." + std::string(154, '3') + "5");
  EXPECT_EQ(((Lit("1") / Lit("3")) * Lit("3")).ToString(), "1");
  EXPECT_EQ((Lit("10000000000000000000000") / Lit("3")).ToString(),
            "3333333333333333333333." + std::string(132, '3') + "2");
}

TEST(NumberTest, IntegersBeyondADoubleAreExact) {
  EXPECT_EQ((Lit("9007199254740993") + Lit("0")).ToString(), "9007199254740993");
  EXPECT_FALSE(Lit("9007199254740993").Equals(Lit("9007199254740992")));
  EXPECT_GT(Number::Compare(Lit("9007199254740993"), Lit("9007199254740992")), 0);
  EXPECT_EQ((Lit("123456789012345678901234567890") * Lit("10")).ToString(), "1234567890123456789012345678900");
  EXPECT_EQ(Lit("123456789012345678901234567890").Mod(Lit("1000")).ToString(), "890");
  EXPECT_EQ(Lit("123456789012345678901234567890.5").Floor().ToString(), "123456789012345678901234567890");
  EXPECT_EQ(Lit("9007199254740993").ToInt64(), 9007199254740993);
}

TEST(NumberTest, HugeAndTinyNumbersSurviveArithmetic) {
  Number huge = Lit("1e+500");
  EXPECT_FALSE(huge.IsInfinite());
  EXPECT_EQ(huge.ToString(), Digits('1', 500));
  EXPECT_EQ((huge + Lit("1")).ToString(), Digits('1', 500));
  EXPECT_EQ((-huge - huge).ToString(), "-" + Digits('2', 500));
  EXPECT_EQ((huge / huge).ToString(), "1");
  EXPECT_EQ(Lit("1e-500").ToString(), "0." + std::string(499, '0') + "1");
  // format("%d", 1e+500): the exact integer the 512-bit value is.
  std::string exact = huge.ToIntegerString();
  EXPECT_EQ(exact.size(), 500u);
  EXPECT_EQ(exact.substr(0, 10), "9999999999");
}

TEST(NumberTest, DoublesKeepADoublesPrecision) {
  // pow(2, 0.5): a Go float64 in Terraform, printed as the shortest double.
  Number root = Number::FromDouble(std::sqrt(2.0));
  EXPECT_TRUE(root.IsFast());
  EXPECT_EQ(root.ToString(), "1.4142135623730951");
  // Mixed with a literal, the sum is at 512 bits: the double's exact value shows.
  EXPECT_EQ((Lit("5") + root).ToString(), "6.4142135623730951454746218587388284504413604736328125");
  EXPECT_EQ(Number::FromDouble(std::pow(2.0, 600)).ToString(), "4149515568880993" + std::string(165, '0'));
  // cty compares numbers by their text: a provider's double 0.1 is the literal 0.1.
  EXPECT_TRUE(Number::FromDouble(0.1).Equals(Lit("0.1")));
}

TEST(NumberTest, TextHasNoExponent) {
  EXPECT_EQ(Lit("1e21").ToString(), "1000000000000000000000");
  EXPECT_EQ(Lit("1e-7").ToString(), "0.0000001");
  EXPECT_EQ((-Lit("0")).ToString(), "-0");
  EXPECT_TRUE((-Lit("0")).Equals(Lit("0")));
  EXPECT_EQ((Lit("1") / Lit("0")).ToString(), "+Inf");
  EXPECT_TRUE((Lit("0") / Lit("0")).IsNaN());
  EXPECT_EQ(Lit("1e30").ToFixed(6), "1000000000000000000000000000000.000000");
  EXPECT_EQ((Lit("1") / Lit("3")).ToFixed(3), "0.333");
}

TEST(NumberTest, ParsesOnlyDecimalText) {
  EXPECT_EQ(Lit("+5").ToString(), "5");
  EXPECT_EQ(Lit(".5").ToString(), "0.5");
  EXPECT_EQ(Lit("5.").ToString(), "5");
  EXPECT_EQ(Lit("1E3").ToString(), "1000");
  for (const char* bad : {"", "-", ".", "0x10", "inf", "nan", " 1", "1 ", "1_000", "1e", "1e+"}) {
    EXPECT_FALSE(Number::Parse(bad)) << bad;
  }
}

TEST(NumberTest, ParseIntegerReadsAnySizeInGoDigits) {
  auto big = Number::ParseInteger(std::string(100, 'f'), 16, false);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->ToString(),
            "2582249878086908589655919172003011874329705792829223512830659356540647622016841194629645353280137831435903171972747493375");
  EXPECT_EQ(Number::ParseInteger("ff", 16, true)->ToString(), "-255");
  // Above base 36, Go reads a-z as 10-35 and A-Z as 36-61.
  EXPECT_EQ(Number::ParseInteger("a", 62, false)->ToString(), "10");
  EXPECT_EQ(Number::ParseInteger("A", 62, false)->ToString(), "36");
  EXPECT_FALSE(Number::ParseInteger("12", 2, false));
  EXPECT_FALSE(Number::ParseInteger("", 10, false));
}

TEST(NumberTest, ValuesCarryTheExactNumber) {
  Value v = Value::Number(Lit("9007199254740993"));
  EXPECT_EQ(FormatNumber(v.AsExactNumber()), "9007199254740993");
  EXPECT_EQ(v.AsNumber(), 9007199254740992.0);  // the nearest double, for providers
  EXPECT_FALSE(v.Equals(Value::Number(Lit("9007199254740992"))));
  EXPECT_TRUE(Value::Number(3).AsExactNumber().IsFast());
  Value set = Value::Set({Value::Number(Lit("9007199254740993")), Value::Number(Lit("9007199254740992")),
                          Value::Number(Lit("9007199254740993"))});
  EXPECT_EQ(set.AsList().size(), 2u);
}

TEST(NumberTest, JsonCarriesWholeNumbersWithin64BitsExactly) {
  EXPECT_EQ(ValueToJson(Value::Number(Lit("9007199254740993"))).dump(), "9007199254740993");
  EXPECT_EQ(ValueToJson(Value::Number(Lit("18446744073709551615"))).dump(), "18446744073709551615");
  EXPECT_TRUE(NumberFitsJson(Lit("0.1")));
  EXPECT_FALSE(NumberFitsJson(Lit("1e+500")));
  EXPECT_FALSE(NumberFitsJson(Lit("1") / Lit("3")));
  Value back = JsonToValue(nlohmann::json::parse("[9007199254740993, 0.1]"));
  EXPECT_EQ(FormatNumber(back.AsList()[0].AsExactNumber()), "9007199254740993");
  EXPECT_EQ(FormatNumber((back.AsList()[1].AsExactNumber() + Lit("0.2"))), "0.3");
}

TEST(NumberTest, ExactJsonCarriesEveryNumber) {
  Value v = Value::Tuple({Value::Number(Lit("1") / Lit("3")), Value::Number(Lit("123456789012345678901234567890")),
                          Value::Number(Lit("0.5")), Value::String("1"), Value::Number(Lit("1e+500"))});
  std::string text = DumpExactJson(ValueToExactJson(v));
  EXPECT_EQ(text, "[0." + std::string(154, '3') + "5,123456789012345678901234567890,0.5,\"1\",1" +
                      std::string(500, '0') + "]");
  Value back = JsonToValue(ParseExactJson(text));
  for (size_t i = 0; i < 5; ++i) EXPECT_TRUE(back.AsList()[i].Equals(v.AsList()[i])) << i;
  EXPECT_TRUE(ParseExactJson("[1,").is_discarded());
  // Past double's range (nlohmann's lexer refuses these), beside strings that look alike.
  Value huge = JsonToValue(ParseExactJson(R"({"a": -1e400, "b": "1e400 \" 2e400", "c": [1e-400, 3]})"));
  EXPECT_TRUE(huge.AsMap().at("a").Equals(Value::Number(Lit("-1e+400"))));
  EXPECT_EQ(huge.AsMap().at("b"), Value::String("1e400 \" 2e400"));
  EXPECT_TRUE(huge.AsMap().at("c").AsList()[1].Equals(Value::Number(Lit("3"))));
  EXPECT_TRUE(ParseExactJson("[1e400,").is_discarded());
  // Indented as nlohmann indents.
  nlohmann::json doc = {{"a", ValueToExactJson(v)}, {"b", nlohmann::json::array()}, {"c", {{"d", 1}}}};
  std::string pretty = DumpExactJson(doc, 2);
  EXPECT_EQ(pretty.substr(0, 20), "{\n  \"a\": [\n    0.333");
  nlohmann::json plain = {{"b", nlohmann::json::array()}, {"c", {{"d", 1}, {"e", {1, 2}}}}, {"f", nlohmann::json::object()}};
  EXPECT_EQ(DumpExactJson(plain, 2), plain.dump(2));
  EXPECT_EQ(DumpExactJson(plain), plain.dump());
  // Without the exact form, JSON keeps the nearest double.
  EXPECT_EQ(ValueToJson(v).dump().substr(0, 20), "[0.3333333333333333,");
}

}  // namespace
}  // namespace strata
