// engine/base's digests and HMAC against published test vectors.
#include <gtest/gtest.h>

#include "engine/base/hash.h"
#include "engine/base/hex.h"

namespace strata::base {
namespace {

TEST(HashTest, DigestsOfAbc) {
  EXPECT_EQ(DigestHex(DigestAlgorithm::kMd5, "abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(DigestHex(DigestAlgorithm::kSha1, "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Digest(DigestAlgorithm::kSha512, "abc").size(), 64u);
  EXPECT_EQ(HexEncode(Sha256("abc")), Sha256Hex("abc"));
}

TEST(HashTest, HmacSha256Rfc4231Case2) {
  EXPECT_EQ(HexEncode(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

}  // namespace
}  // namespace strata::base
