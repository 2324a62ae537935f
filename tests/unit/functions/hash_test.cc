#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(HashFunctionsTest, HexDigests) {
  EXPECT_EQ(Call("md5", {S("hello world")}), S("5eb63bbbe01eeed093cb22bb8f5acdc3"));
  EXPECT_EQ(Call("sha1", {S("hello world")}), S("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"));
  EXPECT_EQ(Call("sha256", {S("hello world")}),
            S("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"));
  EXPECT_EQ(Call("sha512", {S("hello world")}), S("309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a"
                                                  "9bcd3ca86d4cd86f989dd35bc5ff499670da34255b45b0"
                                                  "cfd830e81f605dcf7dc5542e93ae9cd76f"));
  EXPECT_EQ(Call("sha256", {S("")}),
            S("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
}

TEST(HashFunctionsTest, Base64Digests) {
  EXPECT_EQ(Call("base64sha256", {S("hello world")}),
            S("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="));
  EXPECT_EQ(Call("base64sha512", {S("hello world")}),
            S("MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+"
              "YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw=="));
}

TEST(HashFunctionsTest, NumbersAreHashedAsTheirStrings) {
  EXPECT_EQ(Call("md5", {N(1)}), Call("md5", {S("1")}));
}

TEST(HashFunctionsTest, FileVariantsHashTheFileBytes) {
  auto dir = std::filesystem::path(::testing::TempDir()) / "strata_hash_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "hello.txt", std::ios::binary) << "hello world";
  FunctionContext ctx;
  ctx.base_dir = dir.string();
  EXPECT_EQ(Call("filesha256", {S("hello.txt")}, ctx),
            S("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"));
  EXPECT_EQ(Call("filemd5", {S("hello.txt")}, ctx), S("5eb63bbbe01eeed093cb22bb8f5acdc3"));
  EXPECT_EQ(Call("filebase64sha256", {S("hello.txt")}, ctx),
            S("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="));
  FunctionError e = CallError("filesha1", {S("missing.txt")}, ctx);
  EXPECT_NE(e.message.find((dir / "missing.txt").string()), std::string::npos);
}

TEST(HashFunctionsTest, Uuidv5IsNameBased) {
  EXPECT_EQ(Call("uuidv5", {S("dns"), S("www.terraform.io")}),
            S("a5008fae-b28c-5ba5-96cd-82b4c53552d6"));
  EXPECT_EQ(Call("uuidv5", {S("url"), S("https://www.terraform.io/")}),
            S("9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5"));
  EXPECT_EQ(Call("uuidv5", {S("6ba7b810-9dad-11d1-80b4-00c04fd430c8"), S("www.terraform.io")}),
            Call("uuidv5", {S("dns"), S("www.terraform.io")}));
  EXPECT_EQ(CallError("uuidv5", {S("bogus"), S("x")}).arg_index, 0);
}

TEST(HashFunctionsTest, SensitiveArgumentGivesSensitiveResult) {
  EXPECT_TRUE(Call("sha256", {S("secret").MarkSensitive()}).IsSensitive());
}

TEST(HashFunctionsTest, UnknownArgumentGivesUnknownResult) {
  EXPECT_TRUE(Call("sha256", {Value::Unknown()}).IsUnknown());
}

}  // namespace
}  // namespace strata
