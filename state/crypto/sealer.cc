#include "state/crypto/sealer.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "engine/base/base64.h"

namespace strata::state::crypto {
namespace {

constexpr char kPlainPrefix[] = "plain:";
constexpr char kGcmPrefix[] = "aes256gcm:";
constexpr size_t kNonceSize = 12;
constexpr size_t kTagSize = 16;

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

std::string Aad(const std::string& key_id) { return "strata-state/v1:" + key_id; }

const unsigned char* U(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::string Seal(const std::string& plaintext, const KeyRing& ring, StateEnvironment& env) {
  if (!ring.primary) return kPlainPrefix + plaintext;
  const StateKey& key = *ring.primary;
  std::string nonce = env.RandomBytes(kNonceSize);
  std::string aad = Aad(key.id);
  std::string out(plaintext.size() + kTagSize, '\0');
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0, total = 0;
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  bool ok = ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceSize, nullptr) == 1 &&
            EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, U(key.bytes), U(nonce)) == 1 &&
            EVP_EncryptUpdate(ctx.get(), nullptr, &len, U(aad), static_cast<int>(aad.size())) == 1 &&
            EVP_EncryptUpdate(ctx.get(), o, &len, U(plaintext), static_cast<int>(plaintext.size())) == 1;
  total = len;
  ok = ok && EVP_EncryptFinal_ex(ctx.get(), o + total, &len) == 1;
  total += len;
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagSize, o + total) == 1;
  if (!ok) throw std::runtime_error("OpenSSL AES-256-GCM encryption failed");  // cannot happen with valid inputs
  out.resize(static_cast<size_t>(total) + kTagSize);
  return kGcmPrefix + key.id + ":" + base::Base64Encode(nonce + out);
}

std::string SealedKeyId(const std::string& sealed) {
  if (!StartsWith(sealed, kGcmPrefix)) return "";
  size_t start = sizeof kGcmPrefix - 1;
  size_t colon = sealed.find(':', start);
  if (colon == std::string::npos) return "";
  return sealed.substr(start, colon - start);
}

bool IsSealedInClear(const std::string& sealed) { return StartsWith(sealed, kPlainPrefix); }

StateResult<std::string> Open(const std::string& sealed, const KeyRing& ring, const std::string& what) {
  if (StartsWith(sealed, kPlainPrefix)) return sealed.substr(sizeof kPlainPrefix - 1);
  std::string key_id = SealedKeyId(sealed);
  if (key_id.empty()) {
    return StateStatus::Error(StateCode::Corrupt, what + ": the stored sensitive value is not in a known format");
  }
  if (ring.empty()) {
    return StateStatus::Error(StateCode::KeyMissing,
                              what + " is encrypted (key id " + key_id +
                                  ") and no state key is configured: set STRATA_STATE_KEY or state.key_file in "
                                  "strata.yaml to the key it was written with");
  }
  const StateKey* key = ring.Find(key_id);
  if (!key) {
    std::string have = ring.primary ? ring.primary->id : ring.old_keys.front().id;
    return StateStatus::Error(StateCode::KeyWrong,
                              what + " is encrypted with key id " + key_id + ", but the configured state key has id " +
                                  have +
                                  ": set STRATA_STATE_KEY to the key it was written with (to rotate keys, set the old "
                                  "one in STRATA_STATE_OLD_KEY and run `strata state rekey`)");
  }
  auto blob = base::Base64Decode(sealed.substr(sizeof kGcmPrefix - 1 + key_id.size() + 1),
                                 base::Base64Input::kOpenSsl);
  if (!blob || blob->size() < kNonceSize + kTagSize) {
    return StateStatus::Error(StateCode::Corrupt, what + ": the stored encrypted value is damaged");
  }
  std::string nonce = blob->substr(0, kNonceSize);
  std::string ct = blob->substr(kNonceSize, blob->size() - kNonceSize - kTagSize);
  std::string tag = blob->substr(blob->size() - kTagSize);
  std::string aad = Aad(key_id);
  std::string out(ct.size() + 1, '\0');
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0, total = 0;
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceSize, nullptr) == 1 &&
            EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, U(key->bytes), U(nonce)) == 1 &&
            EVP_DecryptUpdate(ctx.get(), nullptr, &len, U(aad), static_cast<int>(aad.size())) == 1 &&
            EVP_DecryptUpdate(ctx.get(), o, &len, U(ct), static_cast<int>(ct.size())) == 1;
  total = len;
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagSize, const_cast<char*>(tag.data())) == 1;
  ok = ok && EVP_DecryptFinal_ex(ctx.get(), o + total, &len) == 1;
  if (!ok) {
    return StateStatus::Error(StateCode::KeyWrong,
                              what + " failed authentication with key id " + key_id +
                                  ": the stored value was modified or the key is wrong");
  }
  total += len;
  out.resize(static_cast<size_t>(total));
  return out;
}

}  // namespace strata::state::crypto
