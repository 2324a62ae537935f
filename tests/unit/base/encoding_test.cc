// engine/base's base64 and hex: each decoding mode accepts exactly what its callers accepted
// before the copies were folded (Terraform's base64decode, the builtin provider and the AWS
// tokens, OpenSSL's EVP_DecodeBlock for state keys and sealed values).
#include <gtest/gtest.h>

#include "engine/base/base64.h"
#include "engine/base/hex.h"

namespace strata::base {
namespace {

TEST(Base64Test, EncodesBothAlphabetsWithOrWithoutPadding) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("\xfb\xff"), "+/8=");
  EXPECT_EQ(Base64Encode("\xfb\xff", Base64Alphabet::kUrlSafe), "-_8=");
  EXPECT_EQ(Base64Encode("\xfb\xff", Base64Alphabet::kUrlSafe, /*pad=*/false), "-_8");
}

TEST(Base64Test, StrictAcceptsOnlyPaddedStandardBase64) {
  EXPECT_EQ(*Base64Decode("Zm9vYg=="), "foob");
  EXPECT_EQ(*Base64Decode(""), "");
  EXPECT_FALSE(Base64Decode("Zm9vYg").has_value());    // unpadded
  EXPECT_FALSE(Base64Decode("Zm9v!g==").has_value());  // not the alphabet
  EXPECT_FALSE(Base64Decode("-_8=").has_value());      // URL-safe
  EXPECT_FALSE(Base64Decode("Zg==Zm9v").has_value());  // padding before the end
  EXPECT_EQ(*Base64Decode("Zm8="), "fo");
  EXPECT_FALSE(Base64Decode("Z===").has_value());
}

TEST(Base64Test, LenientTakesEitherAlphabetAndOptionalPadding) {
  EXPECT_EQ(*Base64Decode("-_8", Base64Input::kLenient), "\xfb\xff");
  EXPECT_EQ(*Base64Decode("+/8=", Base64Input::kLenient), "\xfb\xff");
  EXPECT_EQ(*Base64Decode("Zm9vYg===", Base64Input::kLenient), "foob");
  EXPECT_FALSE(Base64Decode("Zm9vY", Base64Input::kLenient).has_value());  // lone character
  EXPECT_FALSE(Base64Decode("Zm 9v", Base64Input::kLenient).has_value());
}

TEST(Base64Test, OpenSslReadsInnerPaddingAsZeroBits) {
  EXPECT_EQ(*Base64Decode("Zm9vYg==", Base64Input::kOpenSsl), "foob");
  EXPECT_EQ(*Base64Decode("AA=A", Base64Input::kOpenSsl), std::string(3, '\0'));
  EXPECT_FALSE(Base64Decode("Zm9v!g==", Base64Input::kOpenSsl).has_value());
  EXPECT_FALSE(Base64Decode("A===", Base64Input::kOpenSsl).has_value());
  EXPECT_FALSE(Base64Decode("Zm9vYg", Base64Input::kOpenSsl).has_value());
}

TEST(HexTest, EncodesLowerCaseAndDecodesEitherCase) {
  EXPECT_EQ(HexEncode("\x01\xff"), "01ff");
  EXPECT_EQ(*HexDecode("01FF"), "\x01\xff");
  EXPECT_FALSE(HexDecode("0g").has_value());
  EXPECT_FALSE(HexDecode("012").has_value());
}

}  // namespace
}  // namespace strata::base
