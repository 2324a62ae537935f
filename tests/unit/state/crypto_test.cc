#include <gtest/gtest.h>

#include "engine/base/base64.h"
#include "engine/base/hex.h"
#include "state/crypto/sealer.h"
#include "state/crypto/state_key.h"
#include "state_test_util.h"

namespace strata::state::crypto {
namespace {

using testing::FakeEnvironment;

const std::string kHexKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

TEST(StateKeyTest, AcceptsHexBase64AndPassphrase) {
  auto hex = ParseStateKey(kHexKey);
  ASSERT_TRUE(hex.ok());
  EXPECT_EQ(hex->bytes.size(), 32u);
  EXPECT_EQ(hex->bytes[1], '\x01');
  EXPECT_EQ(hex->id.size(), 16u);

  auto b64 = ParseStateKey("  " + base::Base64Encode(*base::HexDecode(kHexKey)) + "\n");
  ASSERT_TRUE(b64.ok());
  EXPECT_EQ(b64->bytes, hex->bytes);
  EXPECT_EQ(b64->id, hex->id);

  auto pass = ParseStateKey("correct horse battery staple");
  ASSERT_TRUE(pass.ok());
  EXPECT_EQ(pass->bytes.size(), 32u);
  EXPECT_EQ(pass->id, ParseStateKey("correct horse battery staple")->id);  // deterministic
  EXPECT_NE(pass->id, hex->id);

  EXPECT_EQ(ParseStateKey("  ").status().code(), StateCode::InvalidArgument);
}

TEST(StateKeyTest, KeyRingFromEnvironmentAndFile) {
  FakeEnvironment env;
  testing::TempDir dir;
  auto none = LoadKeyRing(env, "");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  auto missing = LoadKeyRing(env, dir.File("nope.key"));
  EXPECT_EQ(missing.status().code(), StateCode::KeyMissing);
  EXPECT_NE(missing.status().message().find("nope.key"), std::string::npos);

  std::ofstream(dir.File("state.key")) << kHexKey << "\n";
  auto from_file = LoadKeyRing(env, dir.File("state.key"));
  ASSERT_TRUE(from_file.ok());
  EXPECT_EQ(from_file->primary->id, ParseStateKey(kHexKey)->id);

  env.vars["STRATA_STATE_KEY"] = "env passphrase";
  env.vars["STRATA_STATE_OLD_KEY"] = kHexKey;
  auto from_env = LoadKeyRing(env, dir.File("state.key"));
  ASSERT_TRUE(from_env.ok());
  EXPECT_EQ(from_env->primary->id, ParseStateKey("env passphrase")->id);  // env wins over the file
  ASSERT_EQ(from_env->old_keys.size(), 1u);
  EXPECT_NE(from_env->Find(ParseStateKey(kHexKey)->id), nullptr);
}

TEST(SealerTest, RoundTripsWithFreshNonces) {
  FakeEnvironment env;
  KeyRing ring;
  ring.primary = *ParseStateKey(kHexKey);
  std::string a = Seal("\"hunter2\"", ring, env);
  std::string b = Seal("\"hunter2\"", ring, env);
  EXPECT_NE(a, b);  // a fresh nonce per value
  EXPECT_EQ(a.find("hunter2"), std::string::npos);
  EXPECT_EQ(SealedKeyId(a), ring.primary->id);
  auto opened = Open(a, ring, "x");
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  EXPECT_EQ(*opened, "\"hunter2\"");
}

TEST(SealerTest, WithoutKeyStoresInClear) {
  FakeEnvironment env;
  KeyRing ring;
  std::string s = Seal("42", ring, env);
  EXPECT_TRUE(IsSealedInClear(s));
  EXPECT_EQ(*Open(s, ring, "x"), "42");
}

TEST(SealerTest, WrongMissingKeyAndTamperingAreClearErrors) {
  FakeEnvironment env;
  KeyRing ring;
  ring.primary = *ParseStateKey(kHexKey);
  std::string sealed = Seal("\"secret\"", ring, env);

  auto missing = Open(sealed, KeyRing{}, "stage eks: db.password");
  EXPECT_EQ(missing.status().code(), StateCode::KeyMissing);
  EXPECT_NE(missing.status().message().find("STRATA_STATE_KEY"), std::string::npos);
  EXPECT_NE(missing.status().message().find(ring.primary->id), std::string::npos);

  KeyRing other;
  other.primary = *ParseStateKey("another key");
  auto wrong = Open(sealed, other, "stage eks: db.password");
  EXPECT_EQ(wrong.status().code(), StateCode::KeyWrong);
  EXPECT_NE(wrong.status().message().find(ring.primary->id), std::string::npos);
  EXPECT_NE(wrong.status().message().find(other.primary->id), std::string::npos);

  std::string tampered = sealed;
  tampered[tampered.size() - 6] = tampered[tampered.size() - 6] == 'A' ? 'B' : 'A';
  EXPECT_EQ(Open(tampered, ring, "x").status().code(), StateCode::KeyWrong);
  EXPECT_EQ(Open("garbage", ring, "x").status().code(), StateCode::Corrupt);
}

}  // namespace
}  // namespace strata::state::crypto
