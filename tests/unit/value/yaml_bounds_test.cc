// ParseBoundedYaml on texts yaml-cpp alone never finishes: the parser's events are budgeted
// by the text's length, so they end at once with a syntax problem at a position.
#include <gtest/gtest.h>

#include <chrono>

#include "engine/value/yaml_bounds.h"

namespace strata {
namespace {

TEST(YamlBoundsTest, ATextTheParserNeverEndsIsAProblemNotAHang) {
  for (const char* text : {",-", ",-a]b}", ",-${upper(var.name)}%% f]rtrurname)}% f]rtru}"}) {
    auto start = std::chrono::steady_clock::now();
    BoundedYaml parsed = ParseBoundedYaml(text);
    ASSERT_TRUE(parsed.problem) << text;
    EXPECT_EQ(parsed.problem->kind, YamlProblem::Kind::Syntax);
    EXPECT_NE(parsed.problem->message.find("cannot make sense"), std::string::npos) << parsed.problem->message;
    EXPECT_EQ(parsed.problem->mark.line, 0);
    EXPECT_TRUE(parsed.documents.empty());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << text;
  }
}

TEST(YamlBoundsTest, TheBudgetLeavesRealDocumentsAlone) {
  std::string big = "items:\n";
  for (int i = 0; i < 2000; ++i) big += "  - {a: *x, b: [1, 2, {c: d}]}\n";
  big = "x: &x [q]\n" + big + "empty: {}\nnulls: [~, null]\n";
  BoundedYaml parsed = ParseBoundedYaml(big);
  ASSERT_FALSE(parsed.problem) << parsed.problem->message;
  ASSERT_EQ(parsed.documents.size(), 1u);
  EXPECT_EQ(parsed.documents[0]["items"].size(), 2000u);
  EXPECT_FALSE(ParseBoundedYaml("---\n---\n---\na: 1\n").problem) << "empty documents";
  EXPECT_FALSE(ParseBoundedYaml("").problem);
}

}  // namespace
}  // namespace strata
