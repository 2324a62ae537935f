#include "engine/base/bcrypt.h"

#include <crypt.h>

#include <memory>

namespace strata::base {

std::string Bcrypt(RandomSource& random, const std::string& password, int cost) {
  if (cost < kBcryptMinCost || cost > kBcryptMaxCost) return {};
  if (password.find('\0') != std::string::npos) return {};
  std::string entropy = random.Bytes(16);
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  if (!crypt_gensalt_rn("$2a$", static_cast<unsigned long>(cost), entropy.data(), int(entropy.size()), salt,
                        sizeof salt)) {
    return {};
  }
  auto data = std::make_unique<crypt_data>();
  const char* hash = crypt_r(password.c_str(), salt, data.get());
  if (!hash || hash[0] == '*') return {};
  return hash;
}

}  // namespace strata::base
