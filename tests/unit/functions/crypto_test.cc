// bcrypt, rsadecrypt and uuid. Expected texts and messages follow Terraform 1.11's.
#include <crypt.h>
#include <gtest/gtest.h>

#include <memory>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

// A 1024-bit test key (PKCS #1) and "Hello, world!" encrypted to it with PKCS #1 v1.5 padding
// (openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:pkcs1); Terraform decrypts it the same.
const char* const kKey =
"-----BEGIN RSA PRIVATE KEY-----\n"
"MIICXAIBAAKBgQC1QyLOD0IGXBjXQa3DMWJZd/uv/oU5fTrfeuSloeJisHqGuUaR\n"
"LMva/qArm5g2cYWNxZwiPdDINikWgOy5AL5tb6u92Ga21/1dL5wIZIzTYSZyQbFm\n"
"RMH8+QHaPUoqZkW6aND07EvB9ABHGu0fwYYqeqWGTVfXzt0hnOIT0IzOrQIDAQAB\n"
"AoGAX/LIwrC672ji0Vb35uIGQHvNo8yjstnCRzfjPnXhwwHN6fC7FO/UfPjZyhuT\n"
"yAXxfylCS7HTCZf5yeq24/sr0RbLFFhTP9/KJNCwSOQSGTn03lV6UTrkkt/UScF1\n"
"WioHjSht0awHHaaL5yaJ5llf087DsMdfkiyMUH6O09gtPWECQQDu6vMMjFlWfpVo\n"
"UdYrVlqsWvczLUCTmOwS/okko1wKSZLwkrDEGIlmym4JrxYwX4N2QSBFEA7no26y\n"
"5FlUXehFAkEAwjjiU4qqdzcuPkDC0EM0yvoK9AEka9UCMhf/PPNChCVd7/1Py6f5\n"
"LBA48A5/98/44zuSTvkKyxdkPiiZmi/3SQJBAMnFDBv1z2D3qFAghOG2nP7gF9JV\n"
"jirYQ87KvaF+gLWDax/WkogZPLjdjk6JWhDiKRDOcWVB6YSAhnV32WUhpY0CQAEY\n"
"tR5noALASwCK+Q6X8opa0wkBoKUDNNn3jLdZYDzCwT8DnRm3Pw7ioI+qZUqO4AbY\n"
"ZUEQ4uC2pxg6vnNCZhECQH/puCIuH4HYqdSMKkQomMdu0DJ3n6t8uYe3eeXDxp2m\n"
"AcQNT3P5E5cX85zee9oFBDYu198JMu5HeTRDCU8a+pk=\n"
"-----END RSA PRIVATE KEY-----\n";
const char* const kCiphertext = "sqjIZWtc5ofpeLOu6JH+TuaHgEmodbM2MqFZEoDqWn5B9ROQCGUM0iTNVZQaD5Lw+JijJG1q8EPMMxa0ERiOn9fQAvoe/naYwj014L5Uqvrb9BvcSDPwH/PW3Gp3ScYzRiv6j9irZlF2jgtC9FUpcTxTQWwwiXZyXYOPOT2g7KY=";

// Whether `hash` is bcrypt's hash of `password` (libxcrypt checks it).
bool Verifies(const std::string& password, const std::string& hash) {
  auto data = std::make_unique<crypt_data>();
  const char* again = crypt_r(password.c_str(), hash.c_str(), data.get());
  return again && hash == again;
}

TEST(CryptoFunctionsTest, BcryptHashesAsGoDoesWithADefaultCostOfTen) {
  std::string hash = Call("bcrypt", {S("hello world")}).AsString();
  EXPECT_EQ(hash.substr(0, 7), "$2a$10$");
  EXPECT_EQ(hash.size(), 60u);
  EXPECT_TRUE(Verifies("hello world", hash));
  EXPECT_NE(Call("bcrypt", {S("hello world")}).AsString(), hash);  // a new salt each call
  std::string cheap = Call("bcrypt", {S("hello world"), N(4)}).AsString();
  EXPECT_EQ(cheap.substr(0, 7), "$2a$04$");
  EXPECT_TRUE(Verifies("hello world", cheap));
  // Below the minimum cost, Go's bcrypt (so Terraform) uses the default.
  EXPECT_EQ(Call("bcrypt", {S("x"), N(3)}).AsString().substr(0, 7), "$2a$10$");
}

TEST(CryptoFunctionsTest, BcryptRejectsCostsAndPasswordsItCannotTake) {
  FunctionError cost = CallError("bcrypt", {S("x"), N(32)});
  EXPECT_EQ(cost.arg_index, 1);
  EXPECT_EQ(cost.message, "cost 32 is outside the allowed range (4 to 31)");
  EXPECT_EQ(CallError("bcrypt", {S("x"), N(31.5)}).arg_index, 1);
  FunctionError long_password = CallError("bcrypt", {S(std::string(80, 'a'))});
  EXPECT_EQ(long_password.arg_index, 0);
  EXPECT_EQ(long_password.message, "the password is 80 bytes long; bcrypt takes at most 72");
  EXPECT_TRUE(Call("bcrypt", {S("x").MarkSensitive()}).IsSensitive());
}

TEST(CryptoFunctionsTest, RsaDecryptReadsBase64CiphertextAndAPemKey) {
  EXPECT_EQ(Call("rsadecrypt", {S(kCiphertext), S(kKey)}), S("Hello, world!"));
}

TEST(CryptoFunctionsTest, RsaDecryptErrors) {
  FunctionError not_base64 = CallError("rsadecrypt", {S("x"), S(kKey)});
  EXPECT_EQ(not_base64.arg_index, 0);
  EXPECT_EQ(not_base64.message, "failed to decode the ciphertext: it must be base64-encoded");
  FunctionError bad_key = CallError("rsadecrypt", {S(kCiphertext), S("garbage")});
  EXPECT_EQ(bad_key.arg_index, 1);
  EXPECT_EQ(bad_key.message, "invalid private key: no key found");
  FunctionError wrong = CallError("rsadecrypt", {S("aGVsbG8="), S(kKey)});
  EXPECT_EQ(wrong.arg_index, -1);
  EXPECT_EQ(wrong.message.rfind("failed to decrypt: ", 0), 0u) << wrong.message;
}

TEST(CryptoFunctionsTest, UuidIsARandomVersionFourUuid) {
  std::string a = Call("uuid", {}).AsString();
  ASSERT_EQ(a.size(), 36u);
  EXPECT_EQ(a[8], '-');
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(Call("uuid", {}).AsString(), a);
}

}  // namespace
}  // namespace strata
