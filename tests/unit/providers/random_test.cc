#include <crypt.h>

#include <algorithm>
#include <cctype>

#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class RandomTest : public ProviderTest {};

size_t Count(const std::string& s, int (*pred)(int)) {
  return size_t(std::count_if(s.begin(), s.end(), [&](char c) { return pred((unsigned char)c) != 0; }));
}

TEST_F(RandomTest, RandomIdEncodings) {
  Value state = Create("random_id", Obj({{"byte_length", N(8)}, {"prefix", S("p-")}}));
  std::string id = At(state, "id").AsString();
  EXPECT_EQ(id.size(), 11u);  // 8 bytes, unpadded base64
  EXPECT_EQ(At(state, "b64_url").AsString(), "p-" + id);
  EXPECT_EQ(At(state, "hex").AsString().size(), 2u + 16u);
  EXPECT_EQ(At(state, "b64_std").AsString().substr(0, 2), "p-");
  EXPECT_EQ(At(state, "b64_std").AsString().back(), '=');
}

TEST_F(RandomTest, RandomIdImportRoundTrips) {
  ApplyResult imported = provider_->ImportResource(ctx_, "random_id", "p-,AQID");
  ASSERT_FALSE(imported.diags.HasErrors()) << Messages(imported.diags);
  EXPECT_EQ(At(imported.state, "hex").AsString(), "p-010203");
  EXPECT_EQ(At(imported.state, "dec").AsString(), "p-66051");
  EXPECT_EQ(At(imported.state, "byte_length").AsNumber(), 3);
}

TEST_F(RandomTest, StableAfterCreateAndKeepersReplace) {
  Value config = Obj({{"length", N(16)}, {"keepers", StrMap({{"k", "1"}})}});
  Value state = Create("random_string", config);
  PlanResult again = Plan("random_string", state, config);
  EXPECT_TRUE(again.requires_replace.empty());
  EXPECT_TRUE(again.planned.Equals(state));  // defaults filled in, no diff

  PlanResult keepers = Plan("random_string", state,
                            Obj({{"length", N(16)}, {"keepers", StrMap({{"k", "2"}})}}));
  EXPECT_TRUE(Replaces(keepers, "keepers"));
  EXPECT_TRUE(At(keepers.planned, "result").IsUnknown());
  PlanResult length = Plan("random_string", state,
                           Obj({{"length", N(20)}, {"keepers", StrMap({{"k", "1"}})}}));
  EXPECT_TRUE(Replaces(length, "length"));
}

TEST_F(RandomTest, StringIdIsResultAndPlanHasDefaults) {
  PlanResult plan = Plan("random_string", Value(), Obj({{"length", N(12)}}));
  EXPECT_TRUE(At(plan.planned, "result").IsUnknown());
  EXPECT_TRUE(At(plan.planned, "special").AsBool());
  EXPECT_EQ(At(plan.planned, "min_upper").AsNumber(), 0);
  Value state = Create("random_string", Obj({{"length", N(12)}}));
  EXPECT_EQ(At(state, "result").AsString().size(), 12u);
  EXPECT_EQ(At(state, "id").AsString(), At(state, "result").AsString());
  EXPECT_FALSE(At(state, "result").IsSensitive());
}

TEST_F(RandomTest, CharacterClassRules) {
  for (int i = 0; i < 20; ++i) {
    Value state = Create(i == 0 ? "random_password" : "random_string", Obj({{"length", N(12)},
                                                 {"min_upper", N(3)},
                                                 {"min_numeric", N(4)},
                                                 {"min_special", N(2)},
                                                 {"override_special", S("#")}}));
    std::string r = At(state, "result").AsString();
    ASSERT_EQ(r.size(), 12u);
    EXPECT_GE(Count(r, isupper), 3u) << r;
    EXPECT_GE(Count(r, isdigit), 4u) << r;
    EXPECT_GE(size_t(std::count(r.begin(), r.end(), '#')), 2u) << r;
    for (char c : r) EXPECT_TRUE(std::isalnum((unsigned char)c) || c == '#') << r;
  }
  Value only_lower = Create("random_string", Obj({{"length", N(30)},
                                                 {"upper", B(false)},
                                                 {"numeric", B(false)},
                                                 {"special", B(false)}}));
  std::string r = At(only_lower, "result").AsString();
  EXPECT_EQ(Count(r, islower), 30u) << r;
}

TEST_F(RandomTest, NumberIsTheDeprecatedNameOfNumeric) {
  Value config = Obj({{"length", N(40)}, {"number", B(false)}});
  Value state = Create("random_string", config);
  EXPECT_FALSE(At(state, "numeric").AsBool());
  EXPECT_FALSE(At(state, "number").AsBool());
  std::string result = At(state, "result").AsString();
  for (char c : result) EXPECT_FALSE(std::isdigit((unsigned char)c)) << result;
  EXPECT_TRUE(Plan("random_string", state, config).requires_replace.empty());
}

TEST_F(RandomTest, MinimumsLongerThanLengthAreRejected) {
  PlanResult plan = Plan("random_password", Value(),
                         Obj({{"length", N(3)}, {"min_upper", N(2)}, {"min_lower", N(2)}}));
  EXPECT_TRUE(plan.diags.HasErrors());
}

TEST_F(RandomTest, PasswordIsSensitive) {
  const ResourceSchema& schema = SchemaOf("random_password");
  EXPECT_TRUE(schema.attributes.at("result").sensitive);
  EXPECT_TRUE(schema.attributes.at("bcrypt_hash").sensitive);
  EXPECT_FALSE(SchemaOf("random_string").attributes.at("result").sensitive);

  Value state = Create("random_password", Obj({{"length", N(24)}}));
  EXPECT_TRUE(At(state, "result").IsSensitive());
  EXPECT_EQ(At(state, "id").AsString(), "none");
  EXPECT_TRUE(state.ContainsSensitive());
  std::string result = At(state, "result").AsString();
  std::string hash = At(state, "bcrypt_hash").AsString();
  EXPECT_TRUE(At(state, "bcrypt_hash").IsSensitive());
  ASSERT_EQ(hash.substr(0, 7), "$2a$10$") << hash;
  auto data = std::make_unique<crypt_data>();
  EXPECT_EQ(std::string(crypt_r(result.c_str(), hash.c_str(), data.get())), hash);
  ApplyResult imported = provider_->ImportResource(ctx_, "random_password", "s3cret");
  EXPECT_TRUE(At(imported.state, "result").IsSensitive());
  EXPECT_EQ(At(imported.state, "length").AsNumber(), 6);
}

TEST_F(RandomTest, SeededSourceIsRepeatable) {
  base::SeededRandom a(7), b(7);
  EXPECT_EQ(a.Bytes(16), b.Bytes(16));
  EXPECT_EQ(base::SystemRandom().Uuid().size(), 36u);
}

}  // namespace
}  // namespace strata::testing
