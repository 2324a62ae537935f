#include "state/crypto/state_key.h"

#include <openssl/evp.h>

#include <fstream>
#include <sstream>

#include "engine/base/base64.h"
#include "engine/base/hash.h"
#include "engine/base/hex.h"

namespace strata::state::crypto {
namespace {

constexpr char kSalt[] = "strata-state-key/v1";
constexpr int kIterations = 210000;

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string KeyId(const std::string& key) {
  return base::HexEncode(base::Sha256(key).substr(0, 8));
}

StateResult<StateKey> FromSource(const std::string& text, const std::string& source) {
  auto key = ParseStateKey(text);
  if (!key.ok()) {
    return StateStatus::Error(key.status().code(), source + ": " + key.status().message());
  }
  return key;
}

}  // namespace

StateResult<StateKey> ParseStateKey(const std::string& raw) {
  std::string text = Trim(raw);
  if (text.empty()) return StateStatus::Error(StateCode::InvalidArgument, "the state key is empty");
  std::string bytes;
  if (auto hex = text.size() == 64 ? base::HexDecode(text) : std::nullopt) {
    bytes = *hex;
  } else if (auto b64 = base::Base64Decode(text, base::Base64Input::kOpenSsl); b64 && b64->size() == 32) {
    bytes = *b64;
  } else {
    bytes.assign(32, '\0');
    if (PKCS5_PBKDF2_HMAC(text.data(), static_cast<int>(text.size()), reinterpret_cast<const unsigned char*>(kSalt),
                          sizeof kSalt - 1, kIterations, EVP_sha256(), 32,
                          reinterpret_cast<unsigned char*>(bytes.data())) != 1) {
      return StateStatus::Error(StateCode::Io, "deriving the state key from the passphrase failed");
    }
  }
  return StateKey{bytes, KeyId(bytes)};
}

const StateKey* KeyRing::Find(const std::string& id) const {
  if (primary && primary->id == id) return &*primary;
  for (const auto& k : old_keys) {
    if (k.id == id) return &k;
  }
  return nullptr;
}

StateResult<KeyRing> LoadKeyRing(StateEnvironment& env, const std::string& key_file) {
  KeyRing ring;
  if (auto v = env.Getenv("STRATA_STATE_KEY"); v && !Trim(*v).empty()) {
    auto key = FromSource(*v, "STRATA_STATE_KEY");
    if (!key.ok()) return key.status();
    ring.primary = *key;
  } else if (!key_file.empty()) {
    std::ifstream in(key_file, std::ios::binary);
    if (!in) {
      return StateStatus::Error(StateCode::KeyMissing,
                                "cannot read the state key file " + key_file +
                                    " (state.key_file in strata.yaml): create it (e.g. `openssl rand -base64 32 > " +
                                    key_file + "`) or remove the setting");
    }
    std::stringstream ss;
    ss << in.rdbuf();
    auto key = FromSource(ss.str(), "state key file " + key_file);
    if (!key.ok()) return key.status();
    ring.primary = *key;
  }
  if (auto v = env.Getenv("STRATA_STATE_OLD_KEY"); v && !Trim(*v).empty()) {
    auto key = FromSource(*v, "STRATA_STATE_OLD_KEY");
    if (!key.ok()) return key.status();
    ring.old_keys.push_back(*key);
  }
  return ring;
}

}  // namespace strata::state::crypto
