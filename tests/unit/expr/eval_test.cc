#include "engine/expr/eval.h"

#include <gtest/gtest.h>

#include "engine/value/format.h"
#include "tests/unit/expr/expr_test_util.h"

namespace strata {
namespace {

using testing::EvalResult;
using testing::EvalText;

Value Str(const char* s) { return Value::String(s); }
Value Num(double n) { return Value::Number(n); }

// A scope with a few variables: var.n = 3, var.s = "x", var.list = ["a","b","c"],
// var.m = {a = 1, b = 2}, var.objs = [{id = "i1"}, {id = "i2"}], var.nul = null,
// var.unk = unknown, var.secret = sensitive "hunter2", var.flag = true.
MapScope TestScope() {
  MapScope scope;
  ValueMap vars = {
      {"n", Num(3)},
      {"s", Str("x")},
      {"list", Value::List({Str("a"), Str("b"), Str("c")})},
      {"m", Value::Map({{"a", Num(1)}, {"b", Num(2)}})},
      {"objs", Value::Tuple({Value::Object({{"id", Str("i1")}, {"tags", Value::Tuple({Str("t1")})}}),
                             Value::Object({{"id", Str("i2")}, {"tags", Value::Tuple({Str("t2")})}})})},
      {"nul", Value::Null()},
      {"unk", Value::Unknown()},
      {"secret", Str("hunter2").MarkSensitive()},
      {"flag", Value::Bool(true)},
      {"set", Value::Set({Str("b"), Str("a")})},
  };
  scope.values["var"] = Value::Object(std::move(vars));
  return scope;
}

EvalResult Eval(std::string_view text) {
  MapScope scope = TestScope();
  return EvalText(text, scope);
}

EvalResult EvalTemplate(std::string_view text) {
  MapScope scope = TestScope();
  return EvalText(text, scope, /*is_template=*/true);
}

// Evaluates and formats the value the way `strata console` shows it.
std::string Show(std::string_view text) {
  EvalResult r = Eval(text);
  if (r.diags.HasErrors()) return "error: " + r.Error();
  return FormatValue(r.value);
}

std::string ShowTemplate(std::string_view text) {
  EvalResult r = EvalTemplate(text);
  if (r.diags.HasErrors()) return "error: " + r.Error();
  return FormatValue(r.value);
}

// The string result itself (FormatValue would escape "${" as "$${").
std::string RawString(const EvalResult& r) {
  if (r.diags.HasErrors()) return "error: " + r.Error();
  if (!r.value.IsString()) return "not a string: " + FormatValue(r.value);
  return r.value.AsString();
}

TEST(EvalTest, Literals) {
  EXPECT_EQ(Show("42"), "42");
  EXPECT_EQ(Show("1.25"), "1.25");
  EXPECT_EQ(Show("true"), "true");
  EXPECT_EQ(Show("null"), "null");
  EXPECT_EQ(Show("\"a\\tb\""), "\"a\\tb\"");
  EXPECT_EQ(Show("\"\\u00e9\""), "\"\xc3\xa9\"");
  EXPECT_EQ(Show("[1, \"a\", true]"), "[\n  1,\n  \"a\",\n  true,\n]");
}

TEST(EvalTest, ArithmeticAndPrecedence) {
  EXPECT_EQ(Show("1 + 2 * 3"), "7");
  EXPECT_EQ(Show("(1 + 2) * 3"), "9");
  EXPECT_EQ(Show("10 - 4 - 3"), "3");
  EXPECT_EQ(Show("100 / 10 / 5"), "2");
  EXPECT_EQ(Show("7 % 4"), "3");
  EXPECT_EQ(Show("-var.n + 1"), "-2");
  EXPECT_EQ(Show("2 * -3"), "-6");
  EXPECT_EQ(Show("\"4\" + 1"), "5");
  EXPECT_EQ(Show("1 + 2 == 3 && 2 < 3"), "true");
  EXPECT_EQ(Show("true || false && false"), "true");
}

TEST(EvalTest, Comparison) {
  EXPECT_EQ(Show("1 < 2"), "true");
  EXPECT_EQ(Show("2 <= 2"), "true");
  EXPECT_EQ(Show("3 > 4"), "false");
  EXPECT_EQ(Show("3 >= 4"), "false");
  EXPECT_EQ(Show("\"a\" == \"a\""), "true");
  EXPECT_EQ(Show("var.s != \"x\""), "false");
  EXPECT_EQ(Show("var.nul == null"), "true");
  EXPECT_EQ(Show("1 == \"1\""), "false");
}

TEST(EvalTest, LogicalOperators) {
  EXPECT_EQ(Show("!true"), "false");
  EXPECT_EQ(Show("!!var.flag"), "true");
  EXPECT_EQ(Show("true && false"), "false");
  EXPECT_EQ(Show("false || true"), "true");
}

TEST(EvalTest, LogicalOperatorsShortCircuit) {
  // The right side would fail: attribute of null, unknown function.
  EXPECT_EQ(Show("var.nul != null && var.nul.x"), "false");
  EXPECT_EQ(Show("var.nul == null || var.nul.x"), "true");
  EXPECT_EQ(Show("false && nosuchfunction()"), "false");
}

TEST(EvalTest, LogicalOperatorNeedsBool) {
  EXPECT_EQ(Show("1 && true").rfind("error: Invalid operand", 0), 0u) << Show("1 && true");
  EXPECT_EQ(Show("!\"x\"").rfind("error: Invalid operand", 0), 0u);
}

TEST(EvalTest, Conditional) {
  EXPECT_EQ(Show("var.flag ? \"yes\" : \"no\""), "\"yes\"");
  EXPECT_EQ(Show("var.n > 5 ? 1 : var.n > 2 ? 2 : 3"), "2");
  // Only the chosen branch is evaluated.
  EXPECT_EQ(Show("true ? 1 : var.nul.x"), "1");
  EXPECT_EQ(Show("null ? 1 : 2").rfind("error: Invalid operand", 0), 0u);
}

TEST(EvalTest, IndexAndAttributeAccess) {
  EXPECT_EQ(Show("var.list[1]"), "\"b\"");
  EXPECT_EQ(Show("var.list[var.n - 1]"), "\"c\"");
  EXPECT_EQ(Show("var.m[\"b\"]"), "2");
  EXPECT_EQ(Show("var.m.a"), "1");
  EXPECT_EQ(Show("var.objs[1].id"), "\"i2\"");
  EXPECT_EQ(Show("[10, 20][\"1\"]"), "20");
  EXPECT_EQ(Show("{a = {b = 5}}.a.b"), "5");
}

TEST(EvalTest, LegacyDotIndex) {
  EXPECT_EQ(Show("var.list.0"), "\"a\"");
  EXPECT_EQ(Show("var.objs.1.id"), "\"i2\"");
}

TEST(EvalTest, Splat) {
  EXPECT_EQ(Show("var.objs[*].id"), "[\n  \"i1\",\n  \"i2\",\n]");
  EXPECT_EQ(Show("var.objs.*.id"), "[\n  \"i1\",\n  \"i2\",\n]");
  EXPECT_EQ(Show("var.objs[*].tags[0]"), "[\n  \"t1\",\n  \"t2\",\n]");
  // The attribute-only splat stops at an index: `.*.tags` then [0] of the result.
  EXPECT_EQ(Show("var.objs.*.tags[0]"), "[\n  \"t1\",\n]");
  EXPECT_EQ(Show("var.nul[*]"), "[]");
  // A single non-list value becomes a one-element tuple.
  EXPECT_EQ(Show("var.m[*].a"), "[\n  1,\n]");
  EXPECT_EQ(Show("length(var.list[*])"), "3");
}

TEST(EvalTest, ForExpressionOverList) {
  EXPECT_EQ(Show("[for s in var.list : upper(s)]"), "[\n  \"A\",\n  \"B\",\n  \"C\",\n]");
  EXPECT_EQ(Show("[for i, s in var.list : \"${i}=${s}\" if i != 1]"), "[\n  \"0=a\",\n  \"2=c\",\n]");
  EXPECT_EQ(Show("{for s in var.list : s => upper(s)}"), "{\n  a = \"A\"\n  b = \"B\"\n  c = \"C\"\n}");
}

TEST(EvalTest, ForExpressionOverMap) {
  EXPECT_EQ(Show("[for k, v in var.m : \"${k}${v}\"]"), "[\n  \"a1\",\n  \"b2\",\n]");
  EXPECT_EQ(Show("{for k, v in var.m : k => v * 10 if v > 1}"), "{\n  b = 20\n}");
}

TEST(EvalTest, ForExpressionOverSet) {
  EXPECT_EQ(Show("[for k, v in var.set : \"${k}${v}\"]"), "[\n  \"aa\",\n  \"bb\",\n]");
}

TEST(EvalTest, ForExpressionGrouping) {
  EXPECT_EQ(Show("{for s in [\"ab\", \"ac\", \"bd\"] : substr(s, 0, 1) => s...}"),
            "{\n  a = [\n    \"ab\",\n    \"ac\",\n  ]\n  b = [\n    \"bd\",\n  ]\n}");
}

TEST(EvalTest, ForExpressionDuplicateKeyIsAnError) {
  EvalResult r = Eval("{for s in [\"a\", \"a\"] : s => 1}");
  EXPECT_EQ(r.diags.items().at(0).summary, "Duplicate object key");
  EXPECT_NE(r.Error().find("\"...\""), std::string::npos);
}

TEST(EvalTest, ForExpressionOverNonCollection) {
  EXPECT_EQ(Show("[for x in 5 : x]").rfind("error: Iteration over non-iterable value", 0), 0u);
  EXPECT_EQ(Show("[for x in var.nul : x]").rfind("error: Iteration over null value", 0), 0u);
}

TEST(EvalTest, ObjectKeys) {
  EXPECT_EQ(Show("{a = 1, \"b-c\" = 2, (var.s) = 3}"), "{\n  a   = 1\n  b-c = 2\n  x   = 3\n}");
  EXPECT_EQ(Show("{a: 1, b: 2}"), "{\n  a = 1\n  b = 2\n}");
  EXPECT_EQ(Show("{\n a = 1\n b = 2\n}"), "{\n  a = 1\n  b = 2\n}");
  EXPECT_EQ(Show("{\"${var.s}y\" = 1}"), "{\n  xy = 1\n}");
  EXPECT_EQ(Show("{a = 1, a = 2}").rfind("error: Duplicate object attribute", 0), 0u);
}

TEST(EvalTest, NestedTemplates) {
  EXPECT_EQ(ShowTemplate("a-${\"b-${var.s}\"}"), "\"a-b-x\"");
  EXPECT_EQ(Show("\"a-${\"b-${\"c-${var.n}\"}\"}\""), "\"a-b-c-3\"");
  EXPECT_EQ(ShowTemplate("${var.n}-${var.flag}"), "\"3-true\"");
}

TEST(EvalTest, SingleInterpolationKeepsTheRawValue) {
  EXPECT_EQ(ShowTemplate("${var.list}"), "tolist([\n  \"a\",\n  \"b\",\n  \"c\",\n])");
  EXPECT_EQ(ShowTemplate("${var.n}"), "3");
}

TEST(EvalTest, TemplateIfDirective) {
  EXPECT_EQ(ShowTemplate("%{if var.flag}on%{else}off%{endif}"), "\"on\"");
  EXPECT_EQ(ShowTemplate("%{ if var.n > 5 }big%{ else }small%{ endif }!"), "\"small!\"");
  EXPECT_EQ(ShowTemplate("[%{if false}x%{endif}]"), "\"[]\"");
}

TEST(EvalTest, TemplateForDirective) {
  EXPECT_EQ(ShowTemplate("%{for s in var.list}${s},%{endfor}"), "\"a,b,c,\"");
  EXPECT_EQ(ShowTemplate("%{for k, v in var.m}${k}=${v};%{endfor}"), "\"a=1;b=2;\"");
  EXPECT_EQ(ShowTemplate("%{for i, s in var.list}%{if i > 0},%{endif}${s}%{endfor}"), "\"a,b,c\"");
}

TEST(EvalTest, TemplateStripMarkersRemoveAdjacentWhitespace) {
  EXPECT_EQ(ShowTemplate("a   ${~ var.n ~}   b"), "\"a3b\"");
  EXPECT_EQ(ShowTemplate("a ${var.n ~}  \n b"), "\"a 3b\"");
  EXPECT_EQ(ShowTemplate("%{ for s in var.list ~}\n  ${s}\n%{~ endfor }"), "\"abc\"");
  EXPECT_EQ(ShowTemplate("x \n%{~ if true ~}\n y \n%{~ endif ~} \nz"), "\"xyz\"");
}

TEST(EvalTest, TemplateEscapes) {
  EXPECT_EQ(RawString(EvalTemplate("$${var.n} is ${var.n}")), "${var.n} is 3");
  EXPECT_EQ(RawString(EvalTemplate("%%{if} stays")), "%{if} stays");
  EXPECT_EQ(RawString(Eval("\"$${x}\"")), "${x}");
}

TEST(EvalTest, TemplateRejectsCollectionsAndNull) {
  EXPECT_EQ(ShowTemplate("a ${var.list}").rfind("error: Invalid template interpolation value", 0), 0u);
  EXPECT_EQ(ShowTemplate("a ${var.nul}").rfind("error: Invalid template interpolation value", 0), 0u);
}

TEST(EvalTest, Heredocs) {
  EXPECT_EQ(RawString(Eval("<<EOT\nhello ${var.s}\nEOT")), "hello x\n");
  EXPECT_EQ(RawString(Eval("<<-EOT\n    a\n      b\n    EOT")), "a\n  b\n");
  EXPECT_EQ(RawString(Eval("<<EOT\n%{for s in var.list}${s};%{endfor}\nEOT")), "a;b;c;\n");
}

TEST(EvalTest, FunctionCalls) {
  EXPECT_EQ(Show("upper(var.s)"), "\"X\"");
  EXPECT_EQ(Show("max(1, 5, 3)"), "5");
  EXPECT_EQ(Show("max([1, 7, 3]...)"), "7");
  EXPECT_EQ(Show("max(9, [1, 7]...)"), "9");
  EXPECT_EQ(Show("join(\"-\", var.list)"), "\"a-b-c\"");
  EXPECT_EQ(Show("max(var.n...)").rfind("error: Invalid expanding argument value", 0), 0u);
}

TEST(EvalTest, TryAndCan) {
  EXPECT_EQ(Show("try(var.nul.x, var.m.zz, \"fallback\")"), "\"fallback\"");
  EXPECT_EQ(Show("try(var.m.a, 0)"), "1");
  EXPECT_EQ(Show("can(var.list[5])"), "false");
  EXPECT_EQ(Show("can(var.list[2])"), "true");
  EXPECT_EQ(Show("try(var.nul.x)").rfind("error: Error in function call", 0), 0u);
  EXPECT_EQ(Show("can(var.unk)"), "(known after apply)");
  EXPECT_EQ(Show("try(var.unk, 1)"), "(known after apply)");
}

// ---- unknown values -------------------------------------------------------------------

TEST(EvalTest, UnknownPropagatesThroughEveryOperator) {
  for (auto text : {"var.unk + 1", "1 - var.unk", "var.unk * 2", "var.unk / 2", "var.unk % 2", "var.unk == 1",
                    "var.unk != 1", "var.unk < 1", "var.unk >= 1", "!var.unk", "-var.unk", "var.unk && true",
                    "false || var.unk", "var.unk ? 1 : 2", "var.unk.attr", "var.unk[0]", "var.list[var.unk]",
                    "var.unk[*].id", "upper(var.unk)", "[for x in var.unk : x]", "{(var.unk) = 1}",
                    "\"a-${var.unk}\"", "{for k, v in var.m : k => v if var.unk}"}) {
    EvalResult r = Eval(text);
    EXPECT_FALSE(r.diags.HasErrors()) << text << ": " << r.Error();
    EXPECT_TRUE(r.value.IsUnknown()) << text << " = " << FormatValue(r.value);
  }
}

TEST(EvalTest, UnknownDoesNotHideADecidedLogicalResult) {
  EXPECT_EQ(Show("var.unk || true"), "true");
  EXPECT_EQ(Show("var.unk && false"), "false");
  EXPECT_EQ(Show("false && var.unk"), "false");
}

TEST(EvalTest, UnknownPropagatesThroughTemplates) {
  for (auto text : {"a-${var.unk}-b", "%{if var.unk}x%{endif}", "%{for x in var.unk}${x}%{endfor}",
                    "%{for x in var.list}${var.unk}%{endfor}"}) {
    EvalResult r = EvalTemplate(text);
    EXPECT_FALSE(r.diags.HasErrors()) << text << ": " << r.Error();
    EXPECT_TRUE(r.value.IsUnknown()) << text;
  }
}

TEST(EvalTest, UnknownInsideACollectionStaysInside) {
  EvalResult r = Eval("[1, var.unk]");
  ASSERT_FALSE(r.diags.HasErrors());
  EXPECT_TRUE(r.value.IsKnown());
  EXPECT_FALSE(r.value.IsWhollyKnown());
  EXPECT_EQ(Show("length([1, var.unk])"), "2");
}

TEST(EvalTest, KnownOperandIsStillCheckedNextToUnknown) {
  EXPECT_EQ(Show("var.unk + \"abc\"").rfind("error: Invalid operand", 0), 0u) << Show("var.unk + \"abc\"");
}

// ---- sensitive values -----------------------------------------------------------------

TEST(EvalTest, SensitivePropagates) {
  for (auto text : {"var.secret", "\"pw=${var.secret}\"", "var.secret == \"x\"", "upper(var.secret)",
                    "var.secret != null ? \"a\" : \"b\"", "{a = var.secret}.a", "[var.secret][0]",
                    "length(var.secret) + 1", "{(var.secret) = 1}", "!(var.secret == \"\")"}) {
    EvalResult r = Eval(text);
    ASSERT_FALSE(r.diags.HasErrors()) << text << ": " << r.Error();
    EXPECT_TRUE(r.value.ContainsSensitive()) << text << " = " << FormatValue(r.value);
  }
  EvalResult in_template = EvalTemplate("%{for c in [var.secret]}${c}%{endfor}");
  EXPECT_TRUE(in_template.value.IsSensitive());
  EXPECT_EQ(Show("nonsensitive(var.secret)"), "\"hunter2\"");
}

TEST(EvalTest, SensitiveValueIsNotShown) {
  EXPECT_EQ(Show("\"pw=${var.secret}\""), "(sensitive value)");
}

// ---- errors with positions ------------------------------------------------------------

TEST(EvalTest, UnknownFunctionSuggestsAName) {
  EvalResult r = Eval("1 + uper(var.s)");
  ASSERT_EQ(r.diags.size(), 1u);
  EXPECT_EQ(r.Error(), "Call to unknown function: There is no function named \"uper\". Did you mean \"upper\"?");
  EXPECT_EQ(r.Where(), "3:14");
  EXPECT_EQ(r.diags.items()[0].subject.file, "main.yaml");
  EXPECT_EQ(r.diags.items()[0].expression, "1 + uper(var.s)");
}

TEST(EvalTest, UnknownFunctionWithoutCloseNameHasNoSuggestion) {
  EvalResult r = Eval("zzzzzzzz()");
  EXPECT_EQ(r.Error(), "Call to unknown function: There is no function named \"zzzzzzzz\".");
}

TEST(EvalTest, IndexOutOfRange) {
  EvalResult r = Eval("var.list[7]");
  EXPECT_EQ(r.Error(),
            "Invalid index: The given key does not identify an element in this collection value: index 7 is out "
            "of range for a list of 3 elements.");
  EXPECT_EQ(r.Where(), "3:18");
}

TEST(EvalTest, MissingMapKeySuggests) {
  EvalResult r = Eval("var.m[\"bb\"]");
  EXPECT_NE(r.Error().find("no key \"bb\". Did you mean \"b\"?"), std::string::npos) << r.Error();
  EXPECT_EQ(r.Where(), "3:15");
}

TEST(EvalTest, BadIndexTypes) {
  EXPECT_EQ(Eval("var.list[\"x\"]").Error(), "Invalid index: A list is indexed by a whole number.");
  EXPECT_EQ(Eval("var.set[0]").diags.items().at(0).summary, "Invalid index");
  EXPECT_EQ(Eval("var.list[1.5]").diags.items().at(0).summary, "Invalid index");
  EXPECT_EQ(Eval("var.n[0]").Error(), "Invalid index: This value does not have any indices: it is a number.");
}

TEST(EvalTest, AttributeOnNull) {
  EvalResult r = Eval("var.nul.name");
  EXPECT_EQ(r.Error(),
            "Attempt to get attribute from null value: This value is null, so it does not have an attribute named "
            "\"name\".");
  EXPECT_EQ(r.Where(), "3:17");
}

TEST(EvalTest, AttributeOnAListSuggestsSplat) {
  EvalResult r = Eval("var.objs.id");
  EXPECT_NE(r.Error().find("use a splat ([*])"), std::string::npos) << r.Error();
}

TEST(EvalTest, UnsupportedAttributeSuggests) {
  EvalResult r = Eval("var.objs[0].idd");
  EXPECT_NE(r.Error().find("Did you mean \"id\"?"), std::string::npos) << r.Error();
}

TEST(EvalTest, DivisionByZeroPointsAtTheDivisor) {
  EvalResult r = Eval("var.n / (var.n - 3)");
  EXPECT_EQ(r.Error(), "Division by zero: The right operand of / is zero.");
  EXPECT_EQ(r.Where(), "3:19");  // the divisor inside the parentheses
  EXPECT_EQ(Eval("5 % 0").Where(), "3:14");
}

TEST(EvalTest, ErrorOnSecondLineHasItsLine) {
  EvalResult r = Eval("[\n  var.nul.x,\n]");
  EXPECT_EQ(r.Where(), "4:14");  // the .x step: continuation column 5 + 9
}

TEST(EvalTest, UndeclaredRootSuggests) {
  EvalResult r = Eval("vr.n");
  EXPECT_EQ(r.Error(), "Reference to undeclared name: There is nothing named \"vr\" here. Did you mean \"var\"?");
  EXPECT_EQ(r.Where(), "3:10");
}

TEST(EvalTest, FunctionArgumentErrorPointsAtTheArgument) {
  EvalResult r = Eval("upper(1, 2)");
  EXPECT_TRUE(r.diags.HasErrors());
  EvalResult bad = Eval("cidrhost(\"nope\", 1)");
  ASSERT_TRUE(bad.diags.HasErrors());
  EXPECT_EQ(bad.diags.items()[0].summary, "Error in function call");
}

// templatestring's template must come from elsewhere (Terraform's rule), checked on the
// expression before anything is evaluated.
TEST(EvalTest, TemplatestringWantsAReferenceForItsTemplate) {
  EXPECT_EQ(Show("templatestring(\"$${a}\", {})"),
            "error: Error in function call: Invalid value for argument 1 of templatestring(): invalid template "
            "expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and "
            "so does not support providing a literal template; consider using a template string expression "
            "instead.");
  EXPECT_NE(Show("templatestring(\"x-${var.s}\", {})").find("to render an inline template, consider using a plain "
                                                           "template string expression"),
            std::string::npos);
  EXPECT_NE(Show("templatestring(jsonencode(\"a\"), {})").find("must be a direct reference to a single string"),
            std::string::npos);
  EXPECT_NE(Show("templatestring(1, {})").find("must be a direct reference"), std::string::npos);
  EvalResult literal = Eval("templatestring(\"$${a}\", {})");
  EXPECT_EQ(literal.Where(), "3:26");  // the argument, not the call
  // A reference passes the rule (rendering then needs the evaluator's template renderer).
  EXPECT_EQ(Show("templatestring(var.s, {})").find("invalid template expression"), std::string::npos);
}

// Terraform's namespaced names: core::NAME is the standard function; providers offer none.
TEST(EvalTest, CoreNamespacedFunctionNames) {
  EXPECT_EQ(Show("core::length([1, 2])"), "2");
  EXPECT_EQ(Show("core::upper(core::lower(\"aB\"))"), "\"AB\"");
  EXPECT_EQ(Show("core::try(var.nul.x, 1)"), "1");
  EXPECT_EQ(Show("provider::aws::arn_parse(\"x\")"),
            "error: Unsupported function namespace: \"provider::aws::arn_parse\" is not a function Strata has: only the "
            "standard functions, optionally written core::NAME, exist (providers do not offer functions).");
  EXPECT_EQ(Show("core::length"), "error: Invalid expression: \"core::length\" must be called, as in core::length(...).");
  EXPECT_EQ(Show("core::nosuch(1)").rfind("error: Call to unknown function", 0), 0u);
}

}  // namespace
}  // namespace strata
