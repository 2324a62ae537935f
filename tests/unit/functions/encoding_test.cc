#include <gtest/gtest.h>

#include "tests/unit/config/yaml_bombs.h"
#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(EncodingFunctionsTest, JsonencodeIsCompactAndHtmlSafe) {
  EXPECT_EQ(Call("jsonencode", {O({{"hello", S("world")}})}), S("{\"hello\":\"world\"}"));
  EXPECT_EQ(Call("jsonencode", {T({N(1), N(2.5), B(true), Value::Null()})}),
            S("[1,2.5,true,null]"));
  EXPECT_EQ(Call("jsonencode", {S("<a & b>")}), S("\"\\u003ca \\u0026 b\\u003e\""));
  EXPECT_EQ(Call("jsonencode", {S("é\u2028")}), S("\"é\\u2028\""));
  EXPECT_EQ(Call("jsonencode", {Value::Null()}), S("null"));
  EXPECT_EQ(Call("jsonencode", {M({})}), S("{}"));
}

TEST(EncodingFunctionsTest, JsondecodeGivesTuplesAndObjects) {
  Value v = Call("jsondecode", {S("{\"hello\": [1, \"two\", null, false]}")});
  EXPECT_EQ(v.kind(), ValueKind::Object);
  EXPECT_EQ(v.AsMap().at("hello").kind(), ValueKind::Tuple);
  EXPECT_EQ(v, O({{"hello", T({N(1), S("two"), Value::Null(), B(false)})}}));
  EXPECT_EQ(Call("jsondecode", {S("true")}), B(true));
  EXPECT_TRUE(Call("jsondecode", {S("null")}).IsNull());
  FunctionError e = CallError("jsondecode", {S("{\"a\":")});
  EXPECT_EQ(e.arg_index, 0);
  EXPECT_EQ(e.message.rfind("invalid JSON: ", 0), 0u);
}

// Found by the fuzzer: a number beyond double's range threw past the error handling and
// aborted the process.
TEST(EncodingFunctionsTest, JsondecodeOfAnOutOfRangeNumberIsAnError) {
  FunctionError e = CallError("jsondecode", {S("[[330012919400065E1404243]]")});
  EXPECT_EQ(e.arg_index, 0);
  EXPECT_NE(e.message.find("invalid JSON: number overflow"), std::string::npos) << e.message;
  EXPECT_EQ(CallError("jsondecode", {S("-1e400")}).message.rfind("invalid JSON: ", 0), 0u);
}

TEST(EncodingFunctionsTest, YamlencodeUsesBlockStyle) {
  EXPECT_EQ(Call("yamlencode", {O({{"a", S("b")}, {"c", S("d")}})}),
            S("\"a\": \"b\"\n\"c\": \"d\"\n"));
  EXPECT_EQ(Call("yamlencode", {O({{"foo", T({N(1), N(2), N(3)})}, {"bar", S("baz")}})}),
            S("\"bar\": \"baz\"\n\"foo\":\n- 1\n- 2\n- 3\n"));
  EXPECT_EQ(
      Call("yamlencode",
           {O({{"foo", T({N(1), O({{"a", S("b")}, {"c", S("d")}}), N(3)})}, {"bar", S("baz")}})}),
      S("\"bar\": \"baz\"\n\"foo\":\n- 1\n- \"a\": \"b\"\n  \"c\": \"d\"\n- 3\n"));
  EXPECT_EQ(Call("yamlencode", {O({{"m", O({{"x", T({})}, {"y", O({})}, {"z", Value::Null()}})}})}),
            S("\"m\":\n  \"x\": []\n  \"y\": {}\n  \"z\": null\n"));
  EXPECT_EQ(Call("yamlencode", {S("hi")}), S("\"hi\"\n"));
  // A plain scalar document is closed with the end marker, as go-yaml (Terraform) does.
  EXPECT_EQ(Call("yamlencode", {N(1)}), S("1\n...\n"));
  EXPECT_EQ(Call("yamlencode", {Value::Null()}), S("null\n...\n"));
  EXPECT_EQ(Call("yamlencode", {Value::Bool(false)}), S("false\n...\n"));
  EXPECT_EQ(Call("yamlencode", {T({T({N(1), N(2)})})}), S("- - 1\n  - 2\n"));
}

TEST(EncodingFunctionsTest, YamlencodeMultilineStringsAsLiteralBlocks) {
  EXPECT_EQ(Call("yamlencode", {O({{"a", S("x\ny")}})}), S("\"a\": |-\n  x\n  y\n"));
  EXPECT_EQ(Call("yamlencode", {O({{"a", S("x\n")}})}), S("\"a\": |\n  x\n"));
}

TEST(EncodingFunctionsTest, YamlRoundTrips) {
  Value v = O({{"list", T({N(1), S("two"), B(true)})}, {"nested", O({{"s", S("multi\nline")}})}});
  EXPECT_EQ(Call("yamldecode", {Call("yamlencode", {v})}), v);
}

TEST(EncodingFunctionsTest, YamldecodeResolvesCoreSchema) {
  Value v =
      Call("yamldecode",
           {S("a: 1\nb: 1.5\nc: true\nd: ~\ne: hello\nf: '2'\ng: [x, 0x10]\nh:\n  - k: v\n")});
  EXPECT_EQ(v, O({{"a", N(1)},
                  {"b", N(1.5)},
                  {"c", B(true)},
                  {"d", Value::Null()},
                  {"e", S("hello")},
                  {"f", S("2")},
                  {"g", T({S("x"), N(16)})},
                  {"h", T({O({{"k", S("v")}})})}}));
  EXPECT_EQ(v.kind(), ValueKind::Object);
  EXPECT_EQ(Call("yamldecode", {S("hello")}), S("hello"));
  EXPECT_TRUE(Call("yamldecode", {S("")}).IsNull());
}

TEST(EncodingFunctionsTest, YamldecodeRejectsMultipleDocumentsAndBadSyntax) {
  EXPECT_NE(
      CallError("yamldecode", {S("a: 1\n---\nb: 2\n")}).message.find("more than one document"),
      std::string::npos);
  EXPECT_NE(CallError("yamldecode", {S("a: [1, 2")}).message.find("on line"), std::string::npos);
}

TEST(EncodingFunctionsTest, Base64RoundTrip) {
  EXPECT_EQ(Call("base64encode", {S("Hello World")}), S("SGVsbG8gV29ybGQ="));
  EXPECT_EQ(Call("base64encode", {S("")}), S(""));
  EXPECT_EQ(Call("base64decode", {S("SGVsbG8gV29ybGQ=")}), S("Hello World"));
  EXPECT_EQ(Call("base64decode", {S("YWI=")}), S("ab"));
  EXPECT_EQ(Call("base64decode", {S("4pyTIMOgIGxhIG1vZGU=")}), S("✓ à la mode"));
}

TEST(EncodingFunctionsTest, Base64decodeErrors) {
  EXPECT_EQ(CallError("base64decode", {S("not base64!")}).message,
            "failed to decode base64 data \"not base64!\"");
  EXPECT_EQ(CallError("base64decode", {S("YQ")}).arg_index, 0);
  EXPECT_EQ(CallError("base64decode", {S("/w==")}).message,
            "the result of decoding the provided string is not valid UTF-8");
}

TEST(EncodingFunctionsTest, UrlencodeEscapesLikeGoQueryEscape) {
  EXPECT_EQ(Call("urlencode", {S("Hello World!")}), S("Hello+World%21"));
  EXPECT_EQ(Call("urlencode", {S("☃")}), S("%E2%98%83"));
  EXPECT_EQ(Call("urlencode", {S("foo:bar@localhost?foo=bar&bar=baz")}),
            S("foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz"));
  EXPECT_EQ(Call("urlencode", {S("a-b_c.d~e")}), S("a-b_c.d~e"));
}

TEST(EncodingFunctionsTest, CsvdecodeGivesListOfObjects) {
  Value v = Call("csvdecode", {S("a,b,c\n1,2,3\n4,5,6\n")});
  EXPECT_EQ(v.kind(), ValueKind::List);
  EXPECT_EQ(v, L({O({{"a", S("1")}, {"b", S("2")}, {"c", S("3")}}),
                  O({{"a", S("4")}, {"b", S("5")}, {"c", S("6")}})}));
  EXPECT_EQ(Call("csvdecode", {S("name,note\r\n\"Smith, J\",\"said \"\"hi\"\"\nthen left\"\r\n")}),
            L({O({{"name", S("Smith, J")}, {"note", S("said \"hi\"\nthen left")}})}));
  EXPECT_EQ(Call("csvdecode", {S("a,b\n")}), L({}));
}

TEST(EncodingFunctionsTest, CsvdecodeErrors) {
  EXPECT_EQ(CallError("csvdecode", {S("")}).message, "missing header line");
  EXPECT_NE(CallError("csvdecode", {S("a,b\n1,2,3\n")}).message.find("wrong number of fields"),
            std::string::npos);
  EXPECT_NE(CallError("csvdecode", {S("a,b\n1,x\"y\n")}).message.find("bare \""),
            std::string::npos);
}

TEST(EncodingFunctionsTest, SensitiveArgumentGivesSensitiveResult) {
  Value v = Call("jsonencode", {O({{"password", S("hunter2").MarkSensitive()}})});
  EXPECT_TRUE(v.IsSensitive());
  EXPECT_EQ(v, S("{\"password\":\"hunter2\"}"));
}

TEST(EncodingFunctionsTest, UnknownArgumentGivesUnknownResult) {
  EXPECT_TRUE(Call("jsonencode", {O({{"a", Value::Unknown()}})}).IsUnknown());
}

// 20,000 levels overflowed the stack before; the limit (256, engine/value/limits.h) is
// checked while parsing.
TEST(EncodingFunctionsTest, DecodersRefuseDeepNesting) {
  auto nested = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  EXPECT_EQ(CallError("jsondecode", {S(nested(20000))}).message,
            "invalid JSON: objects and arrays nest more than 256 levels deep");
  EXPECT_EQ(CallError("jsondecode", {S(nested(257))}).message,
            "invalid JSON: objects and arrays nest more than 256 levels deep");
  EXPECT_EQ(Call("jsondecode", {S(nested(256))}).kind(), ValueKind::Tuple);
  std::string deep_object;
  for (int i = 0; i < 20000; ++i) deep_object += "{\"a\":";
  EXPECT_NE(CallError("jsondecode", {S(deep_object + "1" + std::string(20000, '}'))}).message.find("nest more than 256"),
            std::string::npos);

  FunctionError flow = CallError("yamldecode", {S(nested(20000))});
  EXPECT_NE(flow.message.find("mappings and lists nest more than 256 levels deep"), std::string::npos) << flow.message;
  std::string block;
  for (int i = 0; i < 300; ++i) block += std::string(2 * i, ' ') + "a:\n";
  FunctionError e = CallError("yamldecode", {S(block + std::string(600, ' ') + "leaf\n")});
  EXPECT_EQ(e.message.rfind("on line 257, column ", 0), 0u) << e.message;
  EXPECT_EQ(Call("yamldecode", {S(nested(256))}).kind(), ValueKind::Tuple);
}

// A 600-byte "billion laughs" stood for 10^9 values (5.3 GB); expansion stops at
// 1,000,000 values, and an anchor used inside itself is a nesting error, not a hang.
TEST(EncodingFunctionsTest, YamldecodeBoundsAliasExpansion) {
  FunctionError e = CallError("yamldecode", {S(BillionLaughsYaml())});
  EXPECT_NE(e.message.find("the document stands for more than 1000000 values once its aliases (*name) are expanded"),
            std::string::npos)
      << e.message;
  EXPECT_NE(CallError("yamldecode", {S("&a [*a]")}).message.find("an anchor is used inside itself"), std::string::npos);
  EXPECT_EQ(Call("yamldecode", {S("a: &x [1, 2]\nb: *x\n")}), O({{"a", T({N(1), N(2)})}, {"b", T({N(1), N(2)})}}));
}

// Merge keys, as Terraform 1.11's yamldecode reads them (checked with `terraform console`):
// eksctl ClusterConfigs repeat a node group with `<<: *group`.
TEST(EncodingFunctionsTest, YamldecodeMergeKeysAsTerraform) {
  EXPECT_EQ(Call("yamldecode", {S("b: &b {a: 1}\nc: {<<: *b, d: 2}\n")}),
            O({{"b", O({{"a", N(1)}})}, {"c", O({{"a", N(1)}, {"d", N(2)}})}}));
  // Where the key stands decides: a later key wins over the merged ones, which win over earlier ones.
  EXPECT_EQ(Call("yamldecode", {S("{<<: {a: 2}, a: 1}")}), O({{"a", N(1)}}));
  EXPECT_EQ(Call("yamldecode", {S("{a: 1, <<: {a: 2, b: 2}}")}), O({{"a", N(2)}, {"b", N(2)}}));
  EXPECT_EQ(Call("yamldecode", {S("{\"<<\": {a: 1}}")}), O({{"a", N(1)}}));  // quoted too, as go-cty-yaml
  EXPECT_EQ(CallError("yamldecode", {S("{<<: 5}")}).message, "cannot merge number into mapping");
  EXPECT_EQ(CallError("yamldecode", {S("{<<: [{a: 1}], d: 4}")}).message, "cannot merge tuple into mapping");
  EXPECT_EQ(CallError("yamldecode", {S("{<<: null}")}).message, "cannot merge dynamic into mapping");
}

TEST(EncodingFunctionsTest, YamldecodeLongHexIsANumberNotACrash) {
  Value big = Call("yamldecode", {S("0x" + std::string(40, 'f'))});  // stoull threw out_of_range here
  ASSERT_TRUE(big.IsNumber());
  EXPECT_GT(big.AsNumber(), 1.4e48);
  EXPECT_EQ(Call("yamldecode", {S("0o17")}), N(15));
}

// Expected texts are Terraform 1.11's (`terraform console`).
TEST(EncodingFunctionsTest, Base64GzipWritesGzipAsTerraformDoes) {
  EXPECT_EQ(Call("base64gzip", {S("test")}), S("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"));
  EXPECT_EQ(Call("base64gzip", {S("hello world")}), S("H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA=="));
  EXPECT_EQ(Call("base64gzip", {S("")}), S("H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA=="));
}

TEST(EncodingFunctionsTest, Base64GunzipUndoesBase64Gzip) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "line " + std::to_string(i) + " ☃\n";
  EXPECT_EQ(Call("base64gunzip", {Call("base64gzip", {S(text)})}), S(text));
  EXPECT_EQ(Call("base64gunzip", {S("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA")}), S("test"));
  FunctionError not_base64 = CallError("base64gunzip", {S("!!")});
  EXPECT_EQ(not_base64.arg_index, 0);
  EXPECT_EQ(CallError("base64gunzip", {S("aGVsbG8=")}).message,
            "failed to decompress the data: it is not complete, valid gzip");
  EXPECT_EQ(CallError("base64gunzip", {S("H4sIAAAAAAAA/ypJLS4BAAAA")}).message,
            "failed to decompress the data: it is not complete, valid gzip");
}

TEST(EncodingFunctionsTest, TextEncodeBase64DocumentationExampleAndEncodings) {
  EXPECT_EQ(Call("textencodebase64", {S("Hello World"), S("UTF-16LE")}), S("SABlAGwAbABvACAAVwBvAHIAbABkAA=="));
  EXPECT_EQ(Call("textencodebase64", {S("Hello"), S("utf-8")}), S("SGVsbG8="));
  EXPECT_EQ(Call("textencodebase64", {S("Hello"), S("latin1")}), S("SGVsbG8="));
  EXPECT_EQ(Call("textencodebase64", {S("€"), S("windows-1252")}), S("gA=="));
  EXPECT_EQ(Call("textencodebase64", {S("Hi"), S("UTF-16")}), S("/v8ASABp"));  // with a byte order mark
  EXPECT_EQ(Call("textencodebase64", {S("Hi €"), S("UTF-16BE")}), S("AEgAaQAgIKw="));
  EXPECT_EQ(Call("textencodebase64", {S(""), S("UTF-16LE")}), S(""));
}

TEST(EncodingFunctionsTest, TextDecodeBase64DocumentationExampleAndEncodings) {
  EXPECT_EQ(Call("textdecodebase64", {S("SABlAGwAbABvACAAVwBvAHIAbABkAA=="), S("UTF-16LE")}), S("Hello World"));
  EXPECT_EQ(Call("textdecodebase64", {S("gqA="), S("Shift_JIS")}), S("あ"));
  EXPECT_EQ(Call("textdecodebase64", {S("/w=="), S("ISO-8859-1")}), S("ÿ"));
  EXPECT_EQ(Call("textdecodebase64", {S("gA=="), S("windows-1252")}), S("€"));
}

TEST(EncodingFunctionsTest, TextBase64Errors) {
  FunctionError unknown = CallError("textencodebase64", {S("Hi"), S("bogus")});
  EXPECT_EQ(unknown.arg_index, 1);
  EXPECT_EQ(unknown.message, "\"bogus\" is not a supported IANA encoding name or alias");
  FunctionError unmappable = CallError("textencodebase64", {S("€"), S("ISO-8859-1")});
  EXPECT_EQ(unmappable.arg_index, 0);
  EXPECT_EQ(unmappable.message.rfind("the given string contains characters that cannot be represented in ", 0), 0u)
      << unmappable.message;
  FunctionError undefined = CallError("textdecodebase64", {S("/w=="), S("UTF-8")});
  EXPECT_EQ(undefined.arg_index, 0);
  EXPECT_EQ(undefined.message, "the given data contains symbols that are not defined for UTF-8");
  EXPECT_EQ(CallError("textdecodebase64", {S("!!"), S("UTF-8")}).arg_index, 0);
}

TEST(EncodingFunctionsTest, UrlDecodeDocumentationExamples) {
  EXPECT_EQ(Call("urldecode", {S("Hello+World%21")}), S("Hello World!"));
  EXPECT_EQ(Call("urldecode", {S("%E2%98%83")}), S("☃"));
  EXPECT_EQ(Call("urldecode", {S("foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz")}),
            S("foo:bar@localhost?foo=bar&bar=baz"));
  EXPECT_EQ(Call("urldecode", {Call("urlencode", {S("a b&c=d/é")})}), S("a b&c=d/é"));
  FunctionError bad = CallError("urldecode", {S("100%zz")});
  EXPECT_EQ(bad.arg_index, 0);
  EXPECT_EQ(bad.message, "invalid URL escape \"%zz\"");
  EXPECT_EQ(CallError("urldecode", {S("%4")}).message, "invalid URL escape \"%4\"");
  EXPECT_EQ(CallError("urldecode", {S("%ff")}).message, "the decoded bytes are not valid UTF-8 text");
}

}  // namespace
}  // namespace strata
