#include "engine/base/hash.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "engine/base/hex.h"

namespace strata::base {
namespace {

const EVP_MD* Md(DigestAlgorithm algorithm) {
  switch (algorithm) {
    case DigestAlgorithm::kMd5:
      return EVP_md5();
    case DigestAlgorithm::kSha1:
      return EVP_sha1();
    case DigestAlgorithm::kSha256:
      return EVP_sha256();
    case DigestAlgorithm::kSha512:
      break;
  }
  return EVP_sha512();
}

}  // namespace

std::string Digest(DigestAlgorithm algorithm, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), out, &len, Md(algorithm), nullptr) != 1) return {};
  return std::string(reinterpret_cast<const char*>(out), len);
}

std::string DigestHex(DigestAlgorithm algorithm, std::string_view data) {
  return HexEncode(Digest(algorithm, data));
}

std::string Sha256(std::string_view data) { return Digest(DigestAlgorithm::kSha256, data); }

std::string Sha256Hex(std::string_view data) { return HexEncode(Sha256(data)); }

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len)) {
    return {};
  }
  return std::string(reinterpret_cast<const char*>(out), len);
}

}  // namespace strata::base
