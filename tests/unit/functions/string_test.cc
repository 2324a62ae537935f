#include <gtest/gtest.h>

#include "engine/expr/template_file.h"
#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

std::string Fmt(const std::string& f, std::vector<Value> args) {
  args.insert(args.begin(), S(f));
  return Call("format", args).AsString();
}

TEST(StringFunctionsTest, FormatBasicVerbs) {
  EXPECT_EQ(Fmt("Hello, %s!", {S("Ander")}), "Hello, Ander!");
  EXPECT_EQ(Fmt("There are %d lights", {N(4)}), "There are 4 lights");
  EXPECT_EQ(Fmt("%t", {B(true)}), "true");
  EXPECT_EQ(Fmt("100%%", {}), "100%");
  EXPECT_EQ(Fmt("%s", {N(1.5)}), "1.5");
  EXPECT_EQ(Fmt("%d", {S("12")}), "12");
}

TEST(StringFunctionsTest, FormatFloats) {
  EXPECT_EQ(Fmt("%f", {N(3.14159)}), "3.141590");
  EXPECT_EQ(Fmt("%.2f", {N(3.14159)}), "3.14");
  EXPECT_EQ(Fmt("%8.3f|", {N(3.14159)}), "   3.142|");
  EXPECT_EQ(Fmt("%e", {N(1234.5678)}), "1.234568e+03");
  EXPECT_EQ(Fmt("%g", {N(0.5)}), "0.5");
  EXPECT_EQ(Fmt("%g", {N(1e6)}), "1e+06");
  EXPECT_EQ(Fmt("%g", {N(123456)}), "123456");
}

TEST(StringFunctionsTest, FormatPadsWidth) {
  EXPECT_EQ(Fmt("%5s|", {S("ab")}), "   ab|");
  EXPECT_EQ(Fmt("%-5s|", {S("ab")}), "ab   |");
  EXPECT_EQ(Fmt("%05d", {N(-42)}), "-0042");
  EXPECT_EQ(Fmt("%+d", {N(5)}), "+5");
  EXPECT_EQ(Fmt("%4s|", {S("é")}), "   é|");
  EXPECT_EQ(Fmt("%.3s", {S("héllo")}), "hél");
}

TEST(StringFunctionsTest, FormatIntegerBases) {
  EXPECT_EQ(Fmt("%x %X %o %b", {N(255), N(255), N(8), N(5)}), "ff FF 10 101");
  EXPECT_EQ(Fmt("%d", {N(-7)}), "-7");
  EXPECT_NE(CallError("format", {S("%d"), N(1.5)}).message.find("integer is required"),
            std::string::npos);
}

TEST(StringFunctionsTest, FormatValueAndJsonVerbs) {
  EXPECT_EQ(Fmt("%v", {S("x")}), "x");
  EXPECT_EQ(Fmt("%v", {N(3)}), "3");
  EXPECT_EQ(Fmt("%v", {Value::Null()}), "null");
  EXPECT_EQ(Fmt("%#v", {S("x")}), "\"x\"");
  EXPECT_EQ(Fmt("%#v", {O({{"a", N(1)}})}), "{\"a\":1}");
  EXPECT_EQ(Fmt("%v", {T({N(1), S("b")})}), "[1,\"b\"]");
  EXPECT_EQ(Fmt("%q", {S("a\"b\n")}), "\"a\\\"b\\n\"");
}

TEST(StringFunctionsTest, FormatExplicitArgumentIndexes) {
  EXPECT_EQ(Fmt("%[2]s %[1]s", {S("world"), S("hello")}), "hello world");
  EXPECT_EQ(Fmt("%[1]s %[1]s", {S("a")}), "a a");
}

TEST(StringFunctionsTest, FormatArgumentCountErrors) {
  EXPECT_NE(CallError("format", {S("%s %s"), S("a")}).message.find("not enough arguments"),
            std::string::npos);
  FunctionError e = CallError("format", {S("%s"), S("a"), S("b")});
  EXPECT_EQ(e.message, "too many arguments; only 1 used by format string");
  EXPECT_EQ(e.arg_index, 2);
  EXPECT_NE(
      CallError("format", {S("%y"), S("a")}).message.find("unrecognized format character 'y'"),
      std::string::npos);
  EXPECT_NE(CallError("format", {S("%s"), T({})}).message.find("string is required"),
            std::string::npos);
  EXPECT_NE(CallError("format", {S("%s"), Value::Null()}).message.find("null"), std::string::npos);
}

TEST(StringFunctionsTest, FormatlistIteratesLists) {
  Value v = Call("formatlist", {S("Hello, %s!"), T({S("Valentina"), S("Ander"), S("Olivia")})});
  EXPECT_EQ(v, Strings({"Hello, Valentina!", "Hello, Ander!", "Hello, Olivia!"}));
  EXPECT_EQ(Call("formatlist", {S("%s, %s!"), S("Salutations"), T({S("Valentina"), S("Ander")})}),
            Strings({"Salutations, Valentina!", "Salutations, Ander!"}));
  EXPECT_NE(CallError("formatlist", {S("%s %s"), T({S("a")}), T({S("a"), S("b")})})
                .message.find("inconsistent"),
            std::string::npos);
}

TEST(StringFunctionsTest, JoinAndSplit) {
  EXPECT_EQ(Call("join", {S(", "), T({S("foo"), S("bar"), S("baz")})}), S("foo, bar, baz"));
  EXPECT_EQ(Call("join", {S(", "), T({S("foo")})}), S("foo"));
  EXPECT_EQ(Call("join", {S("-"), T({S("a")}), T({S("b"), N(1)})}), S("a-b-1"));
  EXPECT_EQ(Call("join", {S(","), T({})}), S(""));
  EXPECT_NE(CallError("join", {S(","), T({Value::Null()})}).message.find("null"),
            std::string::npos);
  Value parts = Call("split", {S(","), S("foo,bar,baz")});
  EXPECT_EQ(parts.kind(), ValueKind::List);
  EXPECT_EQ(parts, Strings({"foo", "bar", "baz"}));
  EXPECT_EQ(Call("split", {S(","), S("foo")}), Strings({"foo"}));
  EXPECT_EQ(Call("split", {S(","), S("")}), Strings({""}));
  EXPECT_EQ(Call("split", {S(""), S("aé")}), Strings({"a", "é"}));
}

TEST(StringFunctionsTest, CaseMappingIsUnicodeAware) {
  EXPECT_EQ(Call("upper", {S("hello")}), S("HELLO"));
  EXPECT_EQ(Call("upper", {S("алло! ÿé")}), S("АЛЛО! ŸÉ"));
  EXPECT_EQ(Call("lower", {S("HELLO Ǆ ÀĞ")}), S("hello Ǆ àğ"));
  EXPECT_EQ(Call("title", {S("hello world")}), S("Hello World"));
  EXPECT_EQ(Call("title", {S("hello-world_x élan")}), S("Hello-World_x Élan"));
  EXPECT_EQ(Call("upper", {N(5)}), S("5"));
}

TEST(StringFunctionsTest, ReplaceLiteralAndRegex) {
  EXPECT_EQ(Call("replace", {S("1 + 2 + 3"), S("+"), S("-")}), S("1 - 2 - 3"));
  EXPECT_EQ(Call("replace", {S("hello world"), S("/w.*d/"), S("everybody")}), S("hello everybody"));
  EXPECT_EQ(Call("replace", {S("hello world"), S("/(\\w+) (\\w+)/"), S("$2 $1")}),
            S("world hello"));
  EXPECT_EQ(Call("replace", {S("a-b"), S("/(?P<x>a)-(?P<y>b)/"), S("${y}$$${x}")}), S("b$a"));
  EXPECT_EQ(Call("replace", {S("ab"), S(""), S("-")}), S("-a-b-"));
  EXPECT_EQ(CallError("replace", {S("x"), S("/(/"), S("y")}).arg_index, 1);
}

TEST(StringFunctionsTest, RegexReturnShapeDependsOnGroups) {
  EXPECT_EQ(Call("regex", {S("[a-z]+"), S("53453453.345345aaabbbccc23454")}), S("aaabbbccc"));
  Value list = Call("regex", {S("(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)"), S("2019-02-01")});
  EXPECT_EQ(list.kind(), ValueKind::List);
  EXPECT_EQ(list, Strings({"2019", "02", "01"}));
  Value named = Call("regex", {S("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?"),
                               S("https://terraform.io/docs/")});
  EXPECT_EQ(named.kind(), ValueKind::Object);
  EXPECT_EQ(named, O({{"authority", S("terraform.io")}, {"scheme", S("https")}}));
  EXPECT_EQ(Call("regex", {S("(a)|(b)"), S("b")}), L({Value::Null(), S("b")}));
}

TEST(StringFunctionsTest, RegexErrors) {
  EXPECT_EQ(CallError("regex", {S("[a-z]+"), S("123")}).message,
            "pattern did not match any part of the given string");
  EXPECT_NE(CallError("regex", {S("(?P<a>x)(y)"), S("xy")}).message.find("cannot be mixed"),
            std::string::npos);
  EXPECT_NE(CallError("regex", {S("[a-"), S("x")}).message.find("invalid regular expression"),
            std::string::npos);
}

TEST(StringFunctionsTest, RegexSupportsLeadingFlags) {
  EXPECT_EQ(Call("regex", {S("(?i)HELLO"), S("say hello")}), S("hello"));
  EXPECT_EQ(Call("regex", {S("(?s)a.b"), S("a\nb")}), S("a\nb"));
}

TEST(StringFunctionsTest, RegexallReturnsEveryMatch) {
  EXPECT_EQ(Call("regexall", {S("[a-z]+"), S("1234abcd5678efgh9")}), Strings({"abcd", "efgh"}));
  EXPECT_EQ(Call("regexall", {S("[a-z]+"), S("123456789")}), L({}));
  EXPECT_EQ(Call("regexall", {S("(?P<k>\\w)=(?P<v>\\d)"), S("a=1 b=2")}),
            L({O({{"k", S("a")}, {"v", S("1")}}), O({{"k", S("b")}, {"v", S("2")}})}));
}

TEST(StringFunctionsTest, TrimFamily) {
  EXPECT_EQ(Call("trim", {S("?!hello?!"), S("!?")}), S("hello"));
  EXPECT_EQ(Call("trim", {S("foobar"), S("far")}), S("oob"));
  EXPECT_EQ(Call("trimspace", {S("  \u00a0hello\n\t")}), S("hello"));
  EXPECT_EQ(Call("trimprefix", {S("helloworld"), S("hello")}), S("world"));
  EXPECT_EQ(Call("trimprefix", {S("helloworld"), S("cat")}), S("helloworld"));
  EXPECT_EQ(Call("trimsuffix", {S("helloworld"), S("world")}), S("hello"));
  EXPECT_EQ(Call("chomp", {S("hello\n\n")}), S("hello"));
  EXPECT_EQ(Call("chomp", {S("hello\r\n")}), S("hello"));
  EXPECT_EQ(Call("chomp", {S("hello\nworld")}), S("hello\nworld"));
}

TEST(StringFunctionsTest, SubstrCountsCodePoints) {
  EXPECT_EQ(Call("substr", {S("hello world"), N(1), N(4)}), S("ello"));
  EXPECT_EQ(Call("substr", {S("🤔🤷"), N(0), N(1)}), S("🤔"));
  EXPECT_EQ(Call("substr", {S("hello world"), N(-5), N(-1)}), S("world"));
  EXPECT_EQ(Call("substr", {S("hello"), N(2), N(100)}), S("llo"));
  EXPECT_EQ(Call("substr", {S("hello"), N(10), N(2)}), S(""));
  EXPECT_NE(CallError("substr", {S("hello"), N(0.5), N(2)}).message.find("whole number"),
            std::string::npos);
}

TEST(StringFunctionsTest, Predicates) {
  EXPECT_EQ(Call("startswith", {S("hello world"), S("hello")}), B(true));
  EXPECT_EQ(Call("startswith", {S("hello world"), S("world")}), B(false));
  EXPECT_EQ(Call("endswith", {S("hello world"), S("world")}), B(true));
  EXPECT_EQ(Call("strcontains", {S("hello world"), S("o w")}), B(true));
  EXPECT_EQ(Call("strcontains", {S("hello world"), S("z")}), B(false));
}

TEST(StringFunctionsTest, StrrevReversesCodePoints) {
  EXPECT_EQ(Call("strrev", {S("hello")}), S("olleh"));
  EXPECT_EQ(Call("strrev", {S("a☃b")}), S("b☃a"));
  EXPECT_EQ(Call("strrev", {S("")}), S(""));
}

TEST(StringFunctionsTest, IndentSkipsFirstLine) {
  EXPECT_EQ(Call("indent", {N(2), S("[\n  foo,\n  bar,\n]\n")}),
            S("[\n    foo,\n    bar,\n  ]\n  "));
  EXPECT_EQ(Call("indent", {N(4), S("one line")}), S("one line"));
  EXPECT_EQ(CallError("indent", {N(-1), S("x")}).arg_index, 0);
}

TEST(StringFunctionsTest, SensitiveArgumentGivesSensitiveResult) {
  Value v = Call("upper", {S("secret").MarkSensitive()});
  EXPECT_TRUE(v.IsSensitive());
  EXPECT_EQ(v, S("SECRET"));
}

TEST(StringFunctionsTest, UnknownArgumentGivesUnknownResult) {
  EXPECT_TRUE(Call("format", {S("%s"), Value::Unknown()}).IsUnknown());
  EXPECT_TRUE(Call("join", {S(","), T({S("a"), Value::Unknown()})}).IsUnknown());
}

TEST(StringFunctionsTest, NullStringArgumentIsRejected) {
  FunctionError e = CallError("upper", {Value::Null()});
  EXPECT_EQ(e.message, "argument must not be null");
  EXPECT_EQ(e.arg_index, 0);
}

// RE2 matches in time linear in the input and without recursion: std::regex took 13.7 s on
// the first and overflowed the stack on the second.
TEST(StringFunctionsTest, PathologicalRegexesFinishWithTheRightResult) {
  EXPECT_EQ(CallError("regex", {S("(a+)+b"), S(std::string(28, 'a'))}).message,
            "pattern did not match any part of the given string");
  EXPECT_EQ(Call("regex", {S("(a+)+b"), S(std::string(28, 'a') + "b")}), L({S(std::string(28, 'a'))}));
  std::string ab;
  for (int i = 0; i < 20000; ++i) ab += i % 2 ? 'b' : 'a';
  EXPECT_EQ(Call("regex", {S("(a|b)*"), S(ab)}), L({S("b")}));
  EXPECT_EQ(Call("regex", {S("^(?:a|b)*$"), S(ab)}), S(ab));
  EXPECT_EQ(Call("regexall", {S("(?:ab)+"), S(ab)}), Strings({ab}));
  EXPECT_EQ(Call("replace", {S(ab), S("/(a|b)*/"), S("x")}), S("x"));
}

TEST(StringFunctionsTest, RegexNamedCaptures) {
  EXPECT_EQ(Call("regex", {S("(?P<key>\\w+)=(?P<value>\\d+)?"), S("size=")}),
            O({{"key", S("size")}, {"value", Value::Null()}}));
  // Go 1.22's spelling of a named group.
  EXPECT_EQ(Call("regex", {S("(?<year>\\d{4})-(?<month>\\d{2})"), S("on 2024-05-01")}),
            O({{"month", S("05")}, {"year", S("2024")}}));
  EXPECT_EQ(Call("replace", {S("2024-05"), S("/(?<y>\\d+)-(?<m>\\d+)/"), S("${m}/$y")}), S("05/2024"));
  // Only a group opener is rewritten: an escaped parenthesis and a class stay literal.
  EXPECT_EQ(Call("regex", {S("\\(?<x>[(?<]"), S("(<x>?")}), S("(<x>?"));
}

TEST(StringFunctionsTest, InvalidPatternNamesThePatternAndRe2sMessage) {
  FunctionError e = CallError("regex", {S("(a"), S("a")});
  EXPECT_EQ(e.message, "invalid regular expression \"(a\": missing ): (a");
  EXPECT_EQ(e.arg_index, 0);
  EXPECT_EQ(CallError("regexall", {S("x{2000}"), S("x")}).message,
            "invalid regular expression \"x{2000}\": invalid repetition size: {2000}");
  EXPECT_EQ(CallError("replace", {S("x"), S("/(?<=x)y/"), S("z")}).arg_index, 1);
}

// Go's rules: each search starts where the previous match ended; an empty match right after
// a match does not count.
TEST(StringFunctionsTest, EmptyMatchesFollowGo) {
  EXPECT_EQ(Call("regexall", {S("a*"), S("baaac")}), Strings({"", "aaa", ""}));
  EXPECT_EQ(Call("replace", {S("baaac"), S("/a*/"), S("-")}), S("-b-c-"));
  EXPECT_EQ(Call("replace", {S("héllo"), S("/x*/"), S("-")}), S("-h-é-l-l-o-"));
  EXPECT_EQ(Call("regexall", {S("^a"), S("aaa")}), Strings({"a"}));
  EXPECT_EQ(Call("replace", {S("a b"), S("/\\b/"), S("|")}), S("|a| |b|"));
}

// Characters are grapheme clusters, as Terraform counts them (answers from terraform console).
TEST(StringFunctionsTest, CharactersAreGraphemeClusters) {
  EXPECT_EQ(Call("length", {S("e\u0301x")}), N(2));
  EXPECT_EQ(Call("length", {S("👨‍👩‍👧")}), N(1));
  EXPECT_EQ(Call("length", {S("🇺🇸🇫🇷")}), N(2));
  EXPECT_EQ(Call("length", {S("\r\n")}), N(1));
  EXPECT_EQ(Call("length", {S("a\r\nb\n")}), N(4));
  EXPECT_EQ(Call("length", {S("héllo")}), N(5));
  EXPECT_EQ(Call("length", {S("")}), N(0));
  EXPECT_EQ(Call("substr", {S("👨‍👩‍👧x"), N(0), N(1)}), S("👨‍👩‍👧"));
  EXPECT_EQ(Call("substr", {S("🇺🇸🇫🇷🇩🇪"), N(1), N(1)}), S("🇫🇷"));
  EXPECT_EQ(Call("substr", {S("🇺🇸🇫🇷🇩🇪"), N(-1), N(1)}), S("🇩🇪"));
  EXPECT_EQ(Call("strrev", {S("e\u0301x🇺🇸")}), S("🇺🇸xe\u0301"));
  EXPECT_EQ(Call("strrev", {S("a\r\nb")}), S("b\r\na"));
  EXPECT_EQ(Fmt("%.1s|", {S("e\u0301x")}), "e\u0301|");
  EXPECT_EQ(Fmt("%3s|", {S("e\u0301")}), "  e\u0301|");
  EXPECT_EQ(Fmt("%-4s|", {S("🇺🇸")}), "🇺🇸   |");
}

TEST(StringFunctionsTest, SubstrDocumentationExamplesAndEdges) {
  EXPECT_EQ(Call("substr", {S("hello world"), N(1), N(4)}), S("ello"));
  EXPECT_EQ(Call("substr", {S("🤔🤷"), N(0), N(1)}), S("🤔"));
  EXPECT_EQ(Call("substr", {S("hello world"), N(-5), N(-1)}), S("world"));
  EXPECT_EQ(Call("substr", {S("hello world"), N(6), N(10)}), S("world"));
  EXPECT_EQ(Call("substr", {S("hello"), N(10), N(1)}), S(""));
  EXPECT_EQ(Call("substr", {S("hello"), N(-10), N(2)}), S("he"));
  EXPECT_EQ(Call("substr", {S("abc"), N(1), N(-2)}), S("bc"));
}

TEST(StringFunctionsTest, TemplatestringRendersATemplateHeldInAString) {
  FunctionContext ctx;
  ctx.render_template = RenderTemplateFile;
  EXPECT_EQ(Call("templatestring", {S("Hello, ${name}!"), O({{"name", S("Jodie")}})}, ctx), S("Hello, Jodie!"));
  EXPECT_EQ(Call("templatestring", {S("%{ for x in xs }${x},%{ endfor }"), O({{"xs", T({N(1), N(2)})}})}, ctx),
            S("1,2,"));
  EXPECT_TRUE(Call("templatestring", {S("Hello, ${name}!"), O({{"name", S("x").MarkSensitive()}})}, ctx).IsSensitive());
  FunctionError null_vars = CallError("templatestring", {S("x"), Value::Null()}, ctx);
  EXPECT_EQ(null_vars.arg_index, 1);
  EXPECT_EQ(null_vars.message, "argument must not be null");
  EXPECT_EQ(CallError("templatestring", {S("x"), S("y")}, ctx).arg_index, 1);
  FunctionError missing = CallError("templatestring", {S("${n}"), O({})}, ctx);
  EXPECT_NE(missing.message.find("<templatestring argument>:1:3"), std::string::npos) << missing.message;
}

}  // namespace
}  // namespace strata
