// random_integer, random_uuid, random_shuffle and random_pet through the provider API, as
// the engine drives them: create, a clean re-plan, keepers (and other arguments) replacing,
// import where Terraform has it, and the seed's stable results.
#include <algorithm>
#include <set>

#include "providers/builtin/pet_words.h"
#include "providers/builtin/seeded_random.h"
#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class RandomMoreTest : public ProviderTest {
 protected:
  //! Creates `config`, then checks that planning it again changes nothing and that other
  //! keepers replace it.
  Value CreateCleanAndKeepers(const std::string& type, Value config) {
    Value with_keepers = attrs::With(config, "keepers", StrMap({{"k", "1"}}));
    Value state = Create(type, with_keepers);
    PlanResult again = Plan(type, state, with_keepers);
    EXPECT_FALSE(again.diags.HasErrors()) << Messages(again.diags);
    EXPECT_TRUE(again.requires_replace.empty()) << type;
    EXPECT_TRUE(again.planned.Equals(state)) << type << ": a re-plan must be clean";
    PlanResult keepers = Plan(type, state, attrs::With(config, "keepers", StrMap({{"k", "2"}})));
    EXPECT_TRUE(Replaces(keepers, "keepers")) << type;
    return state;
  }
};

TEST_F(RandomMoreTest, IntegerIsInRangeStableAndReplacedByItsArguments) {
  Value config = Obj({{"min", N(1)}, {"max", N(6)}});
  Value state = CreateCleanAndKeepers("random_integer", config);
  double result = At(state, "result").AsNumber();
  EXPECT_GE(result, 1);
  EXPECT_LE(result, 6);
  EXPECT_EQ(At(state, "id").AsString(), FormatNumber(result));
  EXPECT_TRUE(Replaces(Plan("random_integer", state, Obj({{"min", N(1)}, {"max", N(7)}, {"keepers", StrMap({{"k", "1"}})}})), "max"));
  EXPECT_TRUE(Replaces(Plan("random_integer", state, Obj({{"min", N(1)}, {"max", N(6)}, {"seed", S("x")}, {"keepers", StrMap({{"k", "1"}})}})), "seed"));
  std::set<double> seen;
  for (int i = 0; i < 200; ++i) seen.insert(At(Create("random_integer", config), "result").AsNumber());
  EXPECT_EQ(seen, (std::set<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(At(Create("random_integer", Obj({{"min", N(-3)}, {"max", N(-3)}})), "result").AsNumber(), -3);
}

TEST_F(RandomMoreTest, IntegerSeedGivesTheSameResultEveryTime) {
  Value config = Obj({{"min", N(0)}, {"max", N(1000000)}, {"seed", S("platform")}});
  double first = At(Create("random_integer", config), "result").AsNumber();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(At(Create("random_integer", config), "result").AsNumber(), first);
  double other = At(Create("random_integer", attrs::With(config, "seed", S("other"))), "result").AsNumber();
  EXPECT_NE(first, other);
  // hashicorp/random derives its seed as Go's crc64.Checksum(seed, crc64.ISO).
  EXPECT_EQ(builtin::Crc64Iso("123456789"), 0xB90956C775A41001ULL);
}

TEST_F(RandomMoreTest, IntegerValidationAndImport) {
  PlanResult reversed = Plan("random_integer", Value(), Obj({{"min", N(5)}, {"max", N(1)}}));
  ASSERT_TRUE(reversed.diags.HasErrors());
  EXPECT_NE(Messages(reversed.diags).find("min (5) must be smaller than or equal to max (1)"), std::string::npos);
  EXPECT_TRUE(Plan("random_integer", Value(), Obj({{"min", N(0.5)}, {"max", N(1)}})).diags.HasErrors());

  ApplyResult imported = provider_->ImportResource(ctx_, "random_integer", "15,1,50");
  ASSERT_FALSE(imported.diags.HasErrors()) << Messages(imported.diags);
  EXPECT_EQ(At(imported.state, "result").AsNumber(), 15);
  EXPECT_EQ(At(imported.state, "id").AsString(), "15");
  EXPECT_TRUE(At(imported.state, "seed").IsNull());
  PlanResult after = Plan("random_integer", imported.state, Obj({{"min", N(1)}, {"max", N(50)}}));
  EXPECT_TRUE(after.requires_replace.empty());
  EXPECT_TRUE(after.planned.Equals(imported.state));
  ApplyResult seeded = provider_->ImportResource(ctx_, "random_integer", "-2,-5,5,abc");
  ASSERT_FALSE(seeded.diags.HasErrors()) << Messages(seeded.diags);
  EXPECT_EQ(At(seeded.state, "seed").AsString(), "abc");
  EXPECT_EQ(At(seeded.state, "min").AsNumber(), -5);
  for (const char* bad : {"15,1", "x,1,50", "1,2,3,4,5"}) {
    EXPECT_TRUE(provider_->ImportResource(ctx_, "random_integer", bad).diags.HasErrors()) << bad;
  }
}

TEST_F(RandomMoreTest, UuidCreateAndImport) {
  Value state = CreateCleanAndKeepers("random_uuid", Obj({}));
  std::string uuid = At(state, "result").AsString();
  EXPECT_EQ(uuid.size(), 36u);
  EXPECT_EQ(At(state, "id").AsString(), uuid);
  ApplyResult imported = provider_->ImportResource(ctx_, "random_uuid", "6D2B7E0C-5D4A-4C36-9A4D-1B9F0E8C7A21");
  ASSERT_FALSE(imported.diags.HasErrors()) << Messages(imported.diags);
  EXPECT_EQ(At(imported.state, "result").AsString(), "6d2b7e0c-5d4a-4c36-9a4d-1b9f0e8c7a21");
  EXPECT_TRUE(Plan("random_uuid", imported.state, Obj({})).requires_replace.empty());
  EXPECT_TRUE(provider_->ImportResource(ctx_, "random_uuid", "not-a-uuid").diags.HasErrors());
}

TEST_F(RandomMoreTest, ShuffleIsAPermutationAndRepeatsForLongerResults) {
  Value input = Strs({"a", "b", "c", "d", "e"});
  Value state = CreateCleanAndKeepers("random_shuffle", Obj({{"input", input}}));
  EXPECT_EQ(At(state, "id").AsString(), "-");
  std::vector<std::string> result = attrs::GetStringList(state, "result");
  std::vector<std::string> sorted = result;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{"a", "b", "c", "d", "e"}));

  Value twelve = Create("random_shuffle", Obj({{"input", input}, {"result_count", N(12)}}));
  std::vector<std::string> long_result = attrs::GetStringList(twelve, "result");
  ASSERT_EQ(long_result.size(), 12u);
  std::vector<std::string> first_five(long_result.begin(), long_result.begin() + 5);
  std::sort(first_five.begin(), first_five.end());
  EXPECT_EQ(first_five, sorted) << "each batch is a whole permutation";
  EXPECT_EQ(attrs::GetStringList(Create("random_shuffle", Obj({{"input", input}, {"result_count", N(2)}})), "result").size(), 2u);
  EXPECT_TRUE(attrs::GetStringList(Create("random_shuffle", Obj({{"input", Strs({})}})), "result").empty());

  EXPECT_TRUE(Replaces(Plan("random_shuffle", state, Obj({{"input", Strs({"a", "b"})}, {"keepers", StrMap({{"k", "1"}})}})), "input"));
  EXPECT_TRUE(Plan("random_shuffle", Value(), Obj({{"input", input}, {"result_count", N(-1)}})).diags.HasErrors());
  EXPECT_TRUE(provider_->ImportResource(ctx_, "random_shuffle", "x").diags.HasErrors()) << "no import, as Terraform";
}

TEST_F(RandomMoreTest, ShuffleSeedGivesTheSameOrderEveryTime) {
  Value config = Obj({{"input", Strs({"a", "b", "c", "d", "e", "f", "g", "h"})}, {"seed", S("zones")}});
  std::vector<std::string> first = attrs::GetStringList(Create("random_shuffle", config), "result");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(attrs::GetStringList(Create("random_shuffle", config), "result"), first);
}

TEST_F(RandomMoreTest, PetNamesFollowLengthPrefixAndSeparator) {
  namespace pw = builtin::pet_words;
  auto in = [](const auto& words, const std::string& w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  Value state = CreateCleanAndKeepers("random_pet", Obj({}));
  std::string id = At(state, "id").AsString();
  EXPECT_EQ(At(state, "length").AsNumber(), 2);
  EXPECT_EQ(At(state, "separator").AsString(), "-");
  size_t dash = id.find('-');
  ASSERT_NE(dash, std::string::npos) << id;
  EXPECT_TRUE(in(pw::kAdjectives, id.substr(0, dash))) << id;
  EXPECT_TRUE(in(pw::kNames, id.substr(dash + 1))) << id;

  std::string one = At(Create("random_pet", Obj({{"length", N(1)}})), "id").AsString();
  EXPECT_TRUE(in(pw::kNames, one)) << one;
  std::string four = At(Create("random_pet", Obj({{"length", N(4)}, {"prefix", S("web")}, {"separator", S(".")}})), "id").AsString();
  std::vector<std::string> words;
  for (size_t start = 0;;) {
    size_t dot = four.find('.', start);
    words.push_back(four.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  ASSERT_EQ(words.size(), 5u) << four;
  EXPECT_EQ(words[0], "web");
  EXPECT_TRUE(in(pw::kAdverbs, words[1]) && in(pw::kAdverbs, words[2])) << four;
  EXPECT_TRUE(in(pw::kAdjectives, words[3])) << four;
  EXPECT_TRUE(in(pw::kNames, words[4])) << four;

  EXPECT_TRUE(Replaces(Plan("random_pet", state, Obj({{"length", N(3)}, {"keepers", StrMap({{"k", "1"}})}})), "length"));
  EXPECT_TRUE(Replaces(Plan("random_pet", state, Obj({{"separator", S("_")}, {"keepers", StrMap({{"k", "1"}})}})), "separator"));
  EXPECT_TRUE(provider_->ImportResource(ctx_, "random_pet", "happy-koala").diags.HasErrors()) << "no import, as Terraform";
}

}  // namespace
}  // namespace strata::testing
