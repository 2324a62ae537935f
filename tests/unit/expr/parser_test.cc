#include "engine/expr/parser.h"

#include <gtest/gtest.h>

#include "engine/expr/nodes.h"
#include "tests/unit/expr/expr_test_util.h"

namespace strata {
namespace {

using testing::TestMapping;

ExprPtr Parse(std::string_view text, Diagnostics& diags) { return ParseExpression(text, TestMapping(), diags); }

ExprPtr MustParse(std::string_view text) {
  Diagnostics diags;
  ExprPtr e = Parse(text, diags);
  EXPECT_FALSE(diags.HasErrors()) << text << ": " << (diags.empty() ? "" : diags.items()[0].detail);
  return e;
}

// The first error of parsing `text` as "line:col summary".
std::string ParseError(std::string_view text, bool is_template = false) {
  Diagnostics diags;
  ExprPtr e = is_template ? ParseTemplate(text, TestMapping(), diags) : Parse(text, diags);
  EXPECT_EQ(e, nullptr) << text;
  if (diags.empty()) return "(no error)";
  const Diagnostic& d = diags.items()[0];
  return std::to_string(d.subject.start.line) + ":" + std::to_string(d.subject.start.column) + " " + d.summary;
}

std::vector<std::string> RefsOf(std::string_view text) {
  std::vector<std::string> out;
  ExprPtr e = MustParse(text);
  if (!e) return out;
  for (const auto& r : ReferencesOf(*e)) out.push_back(r.ToString());
  return out;
}

TEST(ParserTest, LiteralsAreConstants) {
  for (auto text : {"1", "1.5", "2e3", "true", "false", "null", "\"s\""}) {
    ExprPtr e = MustParse(text);
    ASSERT_NE(e, nullptr) << text;
    EXPECT_NE(e->AsLiteral(), nullptr) << text;
  }
  EXPECT_EQ(MustParse("2e3")->AsLiteral()->AsNumber(), 2000);
  EXPECT_TRUE(MustParse("null")->AsLiteral()->IsNull());
}

TEST(ParserTest, ReferencesAreCollectedInSourceOrder) {
  EXPECT_EQ(RefsOf("var.a + local.b * vpc.id"), (std::vector<std::string>{"var.a", "local.b", "vpc.id"}));
  EXPECT_EQ(RefsOf("module.eks.name"), (std::vector<std::string>{"module.eks.name"}));
  EXPECT_EQ(RefsOf("x[\"k\"].y[0]"), (std::vector<std::string>{"x[\"k\"].y[0]"}));
}

TEST(ParserTest, DynamicIndexEndsTheStaticTraversal) {
  EXPECT_EQ(RefsOf("x[var.i].y"), (std::vector<std::string>{"x", "var.i"}));
}

TEST(ParserTest, ForVariablesAreNotReferences) {
  EXPECT_EQ(RefsOf("[for s in var.subnets : s.id if s.public]"), (std::vector<std::string>{"var.subnets"}));
  EXPECT_EQ(RefsOf("{for k, v in var.m : k => v + local.n}"), (std::vector<std::string>{"var.m", "local.n"}));
}

TEST(ParserTest, TemplateDirectiveVariablesAreNotReferences) {
  Diagnostics diags;
  ExprPtr e = ParseTemplate("%{for x in var.xs}${x}-${local.sep}%{endfor}", TestMapping(), diags);
  ASSERT_NE(e, nullptr);
  std::vector<std::string> refs;
  for (const auto& r : ReferencesOf(*e)) refs.push_back(r.ToString());
  EXPECT_EQ(refs, (std::vector<std::string>{"var.xs", "local.sep"}));
}

TEST(ParserTest, SingleInterpolationTemplateYieldsTheExpression) {
  Diagnostics diags;
  ExprPtr e = ParseTemplate("${var.list}", TestMapping(), diags);
  ASSERT_NE(e, nullptr);
  EXPECT_NE(dynamic_cast<const ScopeTraversalExpr*>(e.get()), nullptr);
  ExprPtr t = ParseTemplate("a-${var.x}", TestMapping(), diags);
  EXPECT_NE(dynamic_cast<const TemplateExpr*>(t.get()), nullptr);
  EXPECT_FALSE(diags.HasErrors());
}

TEST(ParserTest, PlainTemplateTextIsALiteralString) {
  Diagnostics diags;
  ExprPtr e = ParseTemplate("just text", TestMapping(), diags);
  ASSERT_NE(e, nullptr);
  ASSERT_NE(e->AsLiteral(), nullptr);
  EXPECT_EQ(e->AsLiteral()->AsString(), "just text");
}

TEST(ParserTest, EscapedInterpolationIsLiteral) {
  Diagnostics diags;
  ExprPtr e = ParseTemplate("$${x} and %%{y}", TestMapping(), diags);
  ASSERT_NE(e, nullptr);
  ASSERT_NE(e->AsLiteral(), nullptr);
  EXPECT_EQ(e->AsLiteral()->AsString(), "${x} and %{y}");
}

TEST(ParserTest, HasTemplateSyntax) {
  EXPECT_TRUE(HasTemplateSyntax("a ${b}"));
  EXPECT_TRUE(HasTemplateSyntax("%{if x}y%{endif}"));
  EXPECT_FALSE(HasTemplateSyntax("plain $ { text } 100%"));
}

TEST(ParserTest, CommentsAreSkipped) {
  ExprPtr e = MustParse("1 + # one\n 2 // two\n + /* three */ 3");
  EXPECT_NE(e, nullptr);
}

TEST(ParserTest, RangesMapToTheFile) {
  ExprPtr e = MustParse("var.a +\n  var.b");
  ASSERT_NE(e, nullptr);
  auto refs = ReferencesOf(*e);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].range.ToString(), "main.yaml:3:10");
  // Second line: continuation column 5 plus two spaces.
  EXPECT_EQ(refs[1].range.ToString(), "main.yaml:4:7");
}

TEST(ParserTest, GroupingEllipsisIsNotAnAttribute) {
  EXPECT_NE(MustParse("{for k, v in var.m : v => k...}"), nullptr);
  EXPECT_NE(MustParse("{for k, v in var.m : v => k ...}"), nullptr);
}

TEST(ParserTest, ExpansionEllipsisIsNotAnAttribute) {
  EXPECT_NE(MustParse("max(var.xs...)"), nullptr);
  EXPECT_NE(MustParse("max(1, local.ys ...)"), nullptr);
}

// ---- errors with positions ------------------------------------------------------------

TEST(ParserTest, UnterminatedStringPointsAtTheOpeningQuote) {
  EXPECT_EQ(ParseError("1 + \"abc"), "3:14 Unterminated string");
}

TEST(ParserTest, ExtraCharactersAfterExpression) {
  EXPECT_EQ(ParseError("var.a var.b"), "3:16 Extra characters after expression");
  Diagnostics diags;
  Parse("1 2", diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags.items()[0].detail.find("\"2\" follows"), std::string::npos) << diags.items()[0].detail;
}

TEST(ParserTest, TooDeepNestingIsAnErrorNotACrash) {
  std::string deep(300, '(');
  deep += "1";
  deep += std::string(300, ')');
  EXPECT_EQ(ParseError(deep).substr(ParseError(deep).find(' ') + 1), "Expression too deeply nested");
  std::string nots(1000, '!');
  nots += "true";
  EXPECT_NE(ParseError(nots).find("Expression too deeply nested"), std::string::npos);
  std::string lists(1000, '[');
  EXPECT_NE(ParseError(lists).find("Expression too deeply nested"), std::string::npos);
  std::string templates;
  for (int i = 0; i < 400; ++i) templates += "\"${";
  EXPECT_NE(ParseError(templates).find("Expression too deeply nested"), std::string::npos);
}

TEST(ParserTest, ModerateNestingIsFine) {
  std::string nested(100, '(');
  nested += "1";
  nested += std::string(100, ')');
  EXPECT_NE(MustParse(nested), nullptr);
}

TEST(ParserTest, MissingClosingBracket) {
  EXPECT_EQ(ParseError("[1, 2"), "3:15 Invalid expression");
  EXPECT_EQ(ParseError("f(1"), "3:13 Invalid expression");
}

TEST(ParserTest, MissingConditionalColon) {
  EXPECT_EQ(ParseError("a ? b"), "3:15 Invalid expression");
}

TEST(ParserTest, EmptyExpression) {
  EXPECT_EQ(ParseError(""), "3:10 Invalid expression");
  EXPECT_EQ(ParseError("1 +"), "3:13 Invalid expression");
}

TEST(ParserTest, KeywordCannotStartAnExpression) {
  EXPECT_EQ(ParseError("in"), "3:10 Invalid expression");
}

TEST(ParserTest, BadEscapeSequence) {
  EXPECT_EQ(ParseError("\"a\\qb\""), "3:12 Invalid escape sequence");
  EXPECT_EQ(ParseError("\"\\u12\""), "3:11 Invalid escape sequence");
}

TEST(ParserTest, QuotedStringCannotSpanLines) {
  EXPECT_EQ(ParseError("\"ab\ncd\""), "3:13 Invalid string");
}

TEST(ParserTest, UnclosedInterpolation) {
  EXPECT_EQ(ParseError("a ${b c", /*is_template=*/true), "3:16 Invalid template interpolation");
}

TEST(ParserTest, UnmatchedTemplateDirectives) {
  EXPECT_EQ(ParseError("x %{endif}", true), "3:12 Unexpected template directive");
  EXPECT_EQ(ParseError("%{if true}x", true), "3:10 Unterminated template directive");
  EXPECT_EQ(ParseError("%{for x in y}x%{endif}", true), "3:26 Invalid template directive");
  EXPECT_EQ(ParseError("%{while x}x", true), "3:10 Invalid template directive");
}

TEST(ParserTest, UnterminatedHeredoc) {
  EXPECT_EQ(ParseError("<<EOT\nabc\n"), "3:10 Unterminated heredoc");
  EXPECT_EQ(ParseError("<<EOT"), "3:10 Invalid heredoc");
}

TEST(ParserTest, UnterminatedComment) {
  EXPECT_EQ(ParseError("1 /* x"), "3:12 Unterminated comment");
}

TEST(ParserTest, ErrorOnContinuationLineUsesContinuationColumn) {
  EXPECT_EQ(ParseError("var.a +\n  )"), "4:7 Invalid expression");
}

TEST(ParserTest, ForExpressionNeedsIn) {
  EXPECT_EQ(ParseError("[for x of xs : x]"), "3:17 Invalid for expression");
}

// 20,000 nested directives overflowed the stack; directives count toward the same 256
// levels as expressions (engine/value/limits.h).
TEST(ParserTest, DeepTemplateDirectivesAreAnErrorNotACrash) {
  std::string ifs, fors;
  for (int i = 0; i < 20000; ++i) {
    ifs += "%{ if true }";
    fors += "%{ for x in y }";
  }
  // The 256th directive's keyword (its condition would be the 257th level): column
  // 10 + 255 * 12 + 3.
  EXPECT_EQ(ParseError(ifs, true), "3:3073 Template too deeply nested");
  EXPECT_NE(ParseError(fors, true).find("Template too deeply nested"), std::string::npos);
  std::string fine;
  for (int i = 0; i < 100; ++i) fine += "%{ if true }";
  for (int i = 0; i < 100; ++i) fine += "%{ endif }";
  Diagnostics diags;
  EXPECT_NE(ParseTemplate(fine, TestMapping(), diags), nullptr);
}

// A heredoc's template is parsed separately, but it is as deep as the heredoc itself.
TEST(ParserTest, HeredocTemplatesCountTheirSurroundingDepth) {
  std::string ifs, endifs;
  for (int i = 0; i < 10; ++i) {
    ifs += "%{ if true }";
    endifs += "%{ endif }";
  }
  std::string heredoc = "<<EOT\n" + ifs + "x" + endifs + "\nEOT\n";
  EXPECT_NE(MustParse(std::string(100, '(') + heredoc + std::string(100, ')')), nullptr);
  EXPECT_NE(ParseError(std::string(250, '(') + heredoc + std::string(250, ')')).find("Template too deeply nested"),
            std::string::npos);
}

TEST(ParserTest, HugeNestingIsAnErrorNotACrash) {
  for (char open : {'(', '[', '{'}) {
    EXPECT_EQ(ParseError(std::string(100000, open)).substr(ParseError(std::string(100000, open)).find(' ') + 1),
              "Expression too deeply nested")
        << open;
  }
  std::string conditionals;
  for (int i = 0; i < 100000; ++i) conditionals += "true ? 1 : ";
  EXPECT_NE(ParseError(conditionals + "2").find("Expression too deeply nested"), std::string::npos);
}

// A chain is parsed in a loop, but its tree nests one level per link, and evaluating or
// freeing that tree recurses: long chains are bounded like brackets.
TEST(ParserTest, LongChainsAreBoundedLikeNesting) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  EXPECT_NE(ParseError("1" + repeat(" + 1", 100000)).find("Expression too deeply nested"), std::string::npos);
  EXPECT_NE(ParseError("x" + repeat("[y]", 100000)).find("Expression too deeply nested"), std::string::npos);
  EXPECT_NE(ParseError("x[*]" + repeat(".a", 100000)).find("Expression too deeply nested"), std::string::npos);
  EXPECT_NE(MustParse("1" + repeat(" + 1", 200)), nullptr);
  EXPECT_NE(MustParse("x" + repeat("[y]", 200)), nullptr);
  // Static steps are a list inside one reference, not a chain.
  EXPECT_NE(MustParse("x" + repeat(".a", 100000)), nullptr);
}

TEST(ParserTest, OversizedNumbersAndCodePoints) {
  // std::stod threw out_of_range on these.
  EXPECT_NE(MustParse("x." + std::string(400, '9')), nullptr);
  EXPECT_NE(MustParse("x[" + std::string(400, '9') + "]"), nullptr);
  EXPECT_EQ(ParseError("\"\\UFFFFFFFF\""), "3:11 Invalid escape sequence");
  EXPECT_EQ(ParseError("\"\\uD800\""), "3:11 Invalid escape sequence");
}

}  // namespace
}  // namespace strata
