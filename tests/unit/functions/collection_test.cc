#include <gtest/gtest.h>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(CollectionFunctionsTest, LengthCountsElementsAttributesAndCodePoints) {
  EXPECT_EQ(Call("length", {T({N(1), N(2)})}), N(2));
  EXPECT_EQ(Call("length", {O({{"a", N(1)}})}), N(1));
  EXPECT_EQ(Call("length", {S("héllo🤔")}), N(6));
  EXPECT_EQ(Call("length", {L({})}), N(0));
}

TEST(CollectionFunctionsTest, LengthOfKnownListWithUnknownElementsIsKnown) {
  EXPECT_EQ(Call("length", {T({Value::Unknown(), N(1)})}), N(2));
  EXPECT_TRUE(Call("length", {Value::Unknown()}).IsUnknown());
}

TEST(CollectionFunctionsTest, LengthRejectsNullAndNumbers) {
  EXPECT_EQ(CallError("length", {Value::Null()}).message, "argument must not be null");
  EXPECT_NE(CallError("length", {N(3)}).message.find("must be a string, a collection type"),
            std::string::npos);
}

TEST(CollectionFunctionsTest, KeysAndValuesAreSortedLists) {
  Value m = O({{"d", N(3)}, {"a", N(1)}, {"c", N(2)}});
  Value keys = Call("keys", {m});
  EXPECT_EQ(keys.kind(), ValueKind::List);
  EXPECT_EQ(keys, Strings({"a", "c", "d"}));
  Value values = Call("values", {m});
  EXPECT_EQ(values.kind(), ValueKind::List);
  EXPECT_EQ(values, L({N(1), N(2), N(3)}));
  EXPECT_EQ(CallError("keys", {T({})}).arg_index, 0);
}

TEST(CollectionFunctionsTest, LookupFallsBackToDefault) {
  Value m = M({{"a", S("ay")}, {"b", S("bee")}});
  EXPECT_EQ(Call("lookup", {m, S("a"), S("what?")}), S("ay"));
  EXPECT_EQ(Call("lookup", {m, S("c"), S("what?")}), S("what?"));
  FunctionError e = CallError("lookup", {m, S("c")});
  EXPECT_EQ(e.message, "lookup failed to find key \"c\"");
  EXPECT_EQ(e.arg_index, 1);
}

TEST(CollectionFunctionsTest, MergeLaterArgumentsWin) {
  Value merged =
      Call("merge", {M({{"a", S("b")}, {"c", S("d")}}), M({{"e", S("f")}, {"c", S("z")}})});
  EXPECT_EQ(merged.kind(), ValueKind::Map);
  EXPECT_EQ(merged, M({{"a", S("b")}, {"c", S("z")}, {"e", S("f")}}));
  Value objects = Call("merge", {O({{"a", N(1)}}), Value::Null(), O({{"b", B(true)}})});
  EXPECT_EQ(objects.kind(), ValueKind::Object);
  EXPECT_EQ(objects, O({{"a", N(1)}, {"b", B(true)}}));
  EXPECT_EQ(Call("merge", {}), M({}));
  FunctionError e = CallError("merge", {M({}), S("x")});
  EXPECT_EQ(e.arg_index, 1);
  EXPECT_NE(e.message.find("arguments must be maps or objects"), std::string::npos);
}

TEST(CollectionFunctionsTest, ConcatJoinsSequencesIntoAList) {
  Value v = Call("concat", {T({S("a"), S("")}), L({S("b"), S("c")})});
  EXPECT_EQ(v.kind(), ValueKind::List);
  EXPECT_EQ(v, Strings({"a", "", "b", "c"}));
  EXPECT_EQ(CallError("concat", {L({}), S("x")}).arg_index, 1);
}

TEST(CollectionFunctionsTest, FlattenIsRecursive) {
  EXPECT_EQ(Call("flatten", {T({T({S("a"), S("b")}), T({}), T({S("c")})})}),
            T({S("a"), S("b"), S("c")}));
  EXPECT_EQ(Call("flatten", {T({T({S("a"), T({S("b")})}), S("c")})}), T({S("a"), S("b"), S("c")}));
  EXPECT_EQ(Call("flatten", {L({L({N(1)}), L({N(2)})})}).kind(), ValueKind::List);
}

TEST(CollectionFunctionsTest, DistinctKeepsFirstOccurrences) {
  EXPECT_EQ(Call("distinct", {T({S("a"), S("b"), S("a"), S("c"), S("d"), S("b")})}),
            Strings({"a", "b", "c", "d"}));
  EXPECT_EQ(Call("distinct", {T({})}), L({}));
}

TEST(CollectionFunctionsTest, ContainsComparesValues) {
  EXPECT_EQ(Call("contains", {T({S("a"), S("b"), S("c")}), S("a")}), B(true));
  EXPECT_EQ(Call("contains", {T({S("a"), S("b"), S("c")}), S("d")}), B(false));
  EXPECT_EQ(Call("contains", {Set({N(1), N(2)}), N(2)}), B(true));
}

TEST(CollectionFunctionsTest, ElementWrapsAround) {
  Value list = T({S("a"), S("b"), S("c")});
  EXPECT_EQ(Call("element", {list, N(1)}), S("b"));
  EXPECT_EQ(Call("element", {list, N(3)}), S("a"));
  EXPECT_EQ(Call("element", {list, N(7)}), S("b"));
  EXPECT_EQ(CallError("element", {list, N(-1)}).message,
            "cannot use element function with a negative index");
  EXPECT_EQ(CallError("element", {T({}), N(0)}).message,
            "cannot use element function with an empty list");
  EXPECT_NE(CallError("element", {list, N(1.5)}).message.find("whole number"), std::string::npos);
}

TEST(CollectionFunctionsTest, IndexFindsFirstMatch) {
  EXPECT_EQ(Call("index", {T({S("a"), S("b"), S("c")}), S("b")}), N(1));
  EXPECT_EQ(CallError("index", {T({S("a")}), S("z")}).message, "item not found");
}

TEST(CollectionFunctionsTest, SliceTakesHalfOpenRange) {
  Value list = T({S("a"), S("b"), S("c"), S("d")});
  Value v = Call("slice", {list, N(1), N(3)});
  EXPECT_EQ(v, T({S("b"), S("c")}));
  EXPECT_EQ(v.kind(), ValueKind::Tuple);
  EXPECT_EQ(Call("slice", {list, N(2), N(2)}), T({}));
  EXPECT_EQ(CallError("slice", {list, N(-1), N(2)}).message,
            "from index must be greater than or equal to 0");
  EXPECT_EQ(CallError("slice", {list, N(0), N(5)}).arg_index, 2);
  EXPECT_EQ(CallError("slice", {list, N(3), N(1)}).arg_index, 1);
  EXPECT_NE(CallError("slice", {Set({N(1)}), N(0), N(1)}).message.find("cannot slice a set"),
            std::string::npos);
}

TEST(CollectionFunctionsTest, RangeFollowsTerraformDefaults) {
  EXPECT_EQ(Call("range", {N(3)}), L({N(0), N(1), N(2)}));
  EXPECT_EQ(Call("range", {N(1), N(4)}), L({N(1), N(2), N(3)}));
  EXPECT_EQ(Call("range", {N(1), N(8), N(2)}), L({N(1), N(3), N(5), N(7)}));
  EXPECT_EQ(Call("range", {N(1), N(4), N(0.5)}), L({N(1), N(1.5), N(2), N(2.5), N(3), N(3.5)}));
  EXPECT_EQ(Call("range", {N(4), N(1)}), L({N(4), N(3), N(2)}));
  EXPECT_EQ(Call("range", {N(10), N(5), N(-2)}), L({N(10), N(8), N(6)}));
  EXPECT_EQ(Call("range", {N(0)}), L({}));
  // Literals have Terraform's 512 bits: adding 0.1 three times is 0.3.
  auto literal = [](const char* text) { return Value::Number(*Number::Parse(text)); };
  Value tenths = Call("range", {N(0), N(1), literal("0.1")});
  ASSERT_EQ(tenths.Length(), 10u);
  EXPECT_EQ(tenths.AsList()[3], literal("0.3"));
  EXPECT_EQ(FormatNumber(tenths.AsList()[3].AsExactNumber()), "0.3");
  EXPECT_EQ(Call("range", {N(1024)}).Length(), 1024u);
}

TEST(CollectionFunctionsTest, RangeRejectsBadStepsAndHugeResults) {
  EXPECT_EQ(CallError("range", {N(1), N(4), N(0)}).message, "step must not be zero");
  EXPECT_EQ(CallError("range", {N(1), N(4), N(-1)}).arg_index, 2);
  EXPECT_EQ(CallError("range", {N(4), N(1), N(1)}).arg_index, 2);
  EXPECT_NE(CallError("range", {N(1025)}).message.find("more than 1024 values were generated"),
            std::string::npos);
}

TEST(CollectionFunctionsTest, ZipmapPairsKeysWithValues) {
  Value v = Call("zipmap", {Strings({"a", "b"}), L({N(1), N(2)})});
  EXPECT_EQ(v.kind(), ValueKind::Map);
  EXPECT_EQ(v, M({{"a", N(1)}, {"b", N(2)}}));
  EXPECT_EQ(Call("zipmap", {T({S("a"), S("b")}), T({N(1), S("x")})}).kind(), ValueKind::Object);
  EXPECT_EQ(CallError("zipmap", {Strings({"a"}), L({})}).message,
            "number of keys (1) does not match number of values (0)");
}

TEST(CollectionFunctionsTest, SetOperationsReturnSets) {
  Value u = Call("setunion", {T({S("a"), S("b")}), T({S("b"), S("c")}), T({S("d")})});
  EXPECT_EQ(u.kind(), ValueKind::Set);
  EXPECT_EQ(u, Set({S("a"), S("b"), S("c"), S("d")}));
  EXPECT_EQ(
      Call("setintersection", {T({S("a"), S("b")}), T({S("b"), S("c")}), T({S("b"), S("d")})}),
      Set({S("b")}));
  EXPECT_EQ(Call("setsubtract", {T({S("a"), S("b"), S("c")}), T({S("a"), S("c")})}), Set({S("b")}));
  EXPECT_EQ(Call("setsubtract", {T({S("a")}), T({})}), Set({S("a")}));
}

TEST(CollectionFunctionsTest, SetProductBuildsAllCombinations) {
  Value v = Call("setproduct", {T({S("development"), S("staging")}), T({S("app1"), S("app2")})});
  EXPECT_EQ(v.kind(), ValueKind::List);
  EXPECT_EQ(v, L({T({S("development"), S("app1")}), T({S("development"), S("app2")}),
                  T({S("staging"), S("app1")}), T({S("staging"), S("app2")})}));
  EXPECT_EQ(Call("setproduct", {Set({S("a")}), Set({N(1), N(2)})}).kind(), ValueKind::Set);
  EXPECT_EQ(Call("setproduct", {T({S("a")}), T({})}), L({}));
}

TEST(CollectionFunctionsTest, CoalesceSkipsNullsAndEmptyStrings) {
  EXPECT_EQ(Call("coalesce", {S("a"), S("b")}), S("a"));
  EXPECT_EQ(Call("coalesce", {S(""), S("b")}), S("b"));
  EXPECT_EQ(Call("coalesce", {Value::Null(), N(1), N(2)}), N(1));
  EXPECT_EQ(Call("coalesce", {N(1), S("hello")}), S("1"));
  EXPECT_EQ(CallError("coalesce", {Value::Null(), S("")}).message,
            "no non-null, non-empty-string arguments");
}

TEST(CollectionFunctionsTest, CoalesceListReturnsFirstNonEmptyList) {
  EXPECT_EQ(Call("coalescelist", {T({}), T({S("c"), S("d")})}), T({S("c"), S("d")}));
  EXPECT_EQ(Call("coalescelist", {T({S("a")}), T({S("c")})}), T({S("a")}));
  EXPECT_EQ(CallError("coalescelist", {T({}), Value::Null()}).message, "no non-null arguments");
}

TEST(CollectionFunctionsTest, CompactDropsEmptyAndNullStrings) {
  EXPECT_EQ(Call("compact", {T({S("a"), S(""), S("b"), Value::Null(), S("c")})}),
            Strings({"a", "b", "c"}));
}

TEST(CollectionFunctionsTest, ChunklistSplitsIntoFixedSizes) {
  Value list = T({S("a"), S("b"), S("c"), S("d"), S("e")});
  EXPECT_EQ(Call("chunklist", {list, N(2)}),
            L({L({S("a"), S("b")}), L({S("c"), S("d")}), L({S("e")})}));
  EXPECT_EQ(Call("chunklist", {list, N(1)}).Length(), 5u);
  EXPECT_EQ(Call("chunklist", {list, N(0)}), L({list}));
  EXPECT_EQ(CallError("chunklist", {list, N(-1)}).message, "the size argument must be positive");
}

TEST(CollectionFunctionsTest, ReverseKeepsSequenceKind) {
  EXPECT_EQ(Call("reverse", {T({N(1), N(2), N(3)})}), T({N(3), N(2), N(1)}));
  EXPECT_EQ(Call("reverse", {L({N(1)})}).kind(), ValueKind::List);
}

TEST(CollectionFunctionsTest, SortIsLexicalOnStrings) {
  EXPECT_EQ(Call("sort", {T({S("e"), S("d"), S("a"), S("x")})}), Strings({"a", "d", "e", "x"}));
  EXPECT_EQ(Call("sort", {T({N(10), N(9), N(1)})}), Strings({"1", "10", "9"}));
  EXPECT_NE(CallError("sort", {T({S("a"), Value::Null()})}).message.find("null"),
            std::string::npos);
}

TEST(CollectionFunctionsTest, TransposeSwapsKeysAndValues) {
  Value in = M({{"a", Strings({"1", "2"})}, {"b", Strings({"2", "3"})}});
  EXPECT_EQ(Call("transpose", {in}),
            M({{"1", Strings({"a"})}, {"2", Strings({"a", "b"})}, {"3", Strings({"b"})}}));
}

TEST(CollectionFunctionsTest, OneAcceptsZeroOrOneElements) {
  EXPECT_TRUE(Call("one", {T({})}).IsNull());
  EXPECT_EQ(Call("one", {T({S("hello")})}), S("hello"));
  EXPECT_EQ(Call("one", {Set({N(1)})}), N(1));
  EXPECT_EQ(CallError("one", {T({S("a"), S("b")})}).message,
            "must be a list, set, or tuple value with either zero or one elements");
}

TEST(CollectionFunctionsTest, AllTrueAndAnyTrue) {
  EXPECT_EQ(Call("alltrue", {T({S("true"), B(true)})}), B(true));
  EXPECT_EQ(Call("alltrue", {T({B(true), B(false)})}), B(false));
  EXPECT_EQ(Call("alltrue", {T({})}), B(true));
  EXPECT_EQ(Call("alltrue", {T({B(true), Value::Null()})}), B(false));
  EXPECT_EQ(Call("anytrue", {T({S("true")})}), B(true));
  EXPECT_EQ(Call("anytrue", {T({B(false), Value::Null()})}), B(false));
  EXPECT_EQ(Call("anytrue", {T({})}), B(false));
  EXPECT_EQ(CallError("alltrue", {T({S("yes")})}).arg_index, 0);
}

TEST(CollectionFunctionsTest, SumAddsNumbers) {
  EXPECT_EQ(Call("sum", {T({N(10), N(13), N(6), N(4.5)})}), N(33.5));
  EXPECT_EQ(Call("sum", {T({S("1"), N(2)})}), N(3));
  EXPECT_EQ(CallError("sum", {T({})}).message, "cannot sum an empty list");
  EXPECT_NE(CallError("sum", {T({S("x")})}).message.find("element 0"), std::string::npos);
}

TEST(CollectionFunctionsTest, MatchkeysFiltersByCorrespondingKeys) {
  Value values = Strings({"i-123", "i-abc", "i-def"});
  Value keys = Strings({"us-west", "us-east", "us-east"});
  EXPECT_EQ(Call("matchkeys", {values, keys, Strings({"us-east"})}), Strings({"i-abc", "i-def"}));
  EXPECT_EQ(CallError("matchkeys", {values, Strings({"a"}), Strings({})}).message,
            "length of keys and values should be equal");
}

TEST(CollectionFunctionsTest, SensitiveArgumentGivesSensitiveResult) {
  Value v = Call("concat", {T({S("a").MarkSensitive()}), T({S("b")})});
  EXPECT_TRUE(v.IsSensitive());
  EXPECT_EQ(v, Strings({"a", "b"}));
}

TEST(CollectionFunctionsTest, UnknownArgumentGivesUnknownResult) {
  EXPECT_TRUE(Call("concat", {Value::Unknown(), T({S("b")})}).IsUnknown());
  EXPECT_TRUE(Call("keys", {Value::Unknown()}).IsUnknown());
}

TEST(CollectionFunctionsTest, StandardTableHasTheWholeLibrary) {
  for (const char* name :
       {"length",    "keys",         "values",   "lookup",          "merge",       "concat",
        "flatten",   "distinct",     "contains", "element",         "index",       "slice",
        "range",     "zipmap",       "setunion", "setintersection", "setsubtract", "setproduct",
        "coalesce",  "coalescelist", "compact",  "chunklist",       "reverse",     "sort",
        "transpose", "one",          "alltrue",  "anytrue",         "sum",         "matchkeys"}) {
    EXPECT_NE(FunctionTable::Standard().Find(name), nullptr) << name;
  }
  EXPECT_EQ(FunctionTable::Standard().Find("try"), nullptr);
  EXPECT_EQ(FunctionTable::Standard().Find("can"), nullptr);
}

TEST(CollectionFunctionsTest, ArityIsChecked) {
  EXPECT_EQ(CallError("lookup", {M({})}).message, "lookup() takes 2 to 3 arguments, got 1");
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// Terraform keeps the structure known when only elements are unknown: the keys of a
// for_each resource's instances are known before apply although their ids are not.
TEST(CollectionFunctionsTest, StructuralFunctionsSeeThroughUnknownElements) {
  Value instances = O({{"a", O({{"id", Value::Unknown()}})}, {"b", O({{"id", Value::Unknown()}})}});
  EXPECT_EQ(Call("keys", {instances}), L({S("a"), S("b")}));
  Value merged = Call("merge", {O({{"x", N(1)}}), O({{"y", Value::Unknown()}})});
  ASSERT_TRUE(merged.IsMapping());
  EXPECT_EQ(merged.AsMap().at("x"), N(1));
  EXPECT_TRUE(merged.AsMap().at("y").IsUnknown());
  EXPECT_EQ(Call("concat", {T({N(1)}), T({Value::Unknown()})}).Length(), 2u);
  EXPECT_TRUE(Call("element", {T({Value::Unknown(), N(2)}), N(0)}).IsUnknown());
  EXPECT_EQ(Call("element", {T({Value::Unknown(), N(2)}), N(1)}), N(2));
  EXPECT_TRUE(Call("keys", {Value::Unknown()}).IsUnknown());
}

}  // namespace
}  // namespace strata
