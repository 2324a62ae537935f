// Cryptographic functions: bcrypt (engine/base's libxcrypt hash, as Go's bcrypt writes it) and
// rsadecrypt (PKCS #1 v1.5 with a PEM private key, through OpenSSL). bcrypt draws a new salt
// on every call, so its result differs each time, as Terraform's does.
#include <fmt/format.h>

#include "engine/base/base64.h"
#include "engine/base/bcrypt.h"
#include "engine/base/random.h"
#include "engine/base/rsa.h"
#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::Fail;

Value BcryptFn(const Args& args, const FunctionContext&) {
  std::string password = functions::StringArg(args, 0);
  int64_t cost = base::kBcryptDefaultCost;
  if (args.size() > 1) {
    cost = functions::IntegerArg(args, 1);
    // Below the minimum, Go's bcrypt (and so Terraform) quietly uses the default cost.
    if (cost < base::kBcryptMinCost) cost = base::kBcryptDefaultCost;
    if (cost > base::kBcryptMaxCost) {
      Fail(1, fmt::format("cost {} is outside the allowed range ({} to {})", cost, base::kBcryptMinCost,
                          base::kBcryptMaxCost));
    }
  }
  if (password.size() > base::kBcryptMaxPasswordBytes) {
    Fail(0, fmt::format("the password is {} bytes long; bcrypt takes at most {}", password.size(),
                        base::kBcryptMaxPasswordBytes));
  }
  base::SystemRandom random;
  std::string hash = base::Bcrypt(random, password, static_cast<int>(cost));
  if (hash.empty()) Fail(0, "bcrypt cannot hash this password (does it contain a NUL character?)");
  return Value::String(hash);
}

Value RsaDecrypt(const Args& args, const FunctionContext&) {
  std::string encoded = functions::StringArg(args, 0);
  std::optional<std::string> ciphertext = base::Base64Decode(encoded);
  if (!ciphertext) Fail(0, "failed to decode the ciphertext: it must be base64-encoded");
  base::RsaDecryptResult result = base::RsaDecryptPkcs1v15(*ciphertext, functions::StringArg(args, 1));
  if (!result.ok) Fail(result.key_error ? 1 : -1, result.error);
  if (!functions::IsValidUtf8(result.plaintext)) Fail(-1, "the decrypted bytes are not valid UTF-8 text");
  return Value::String(result.plaintext);
}

}  // namespace

void RegisterCryptoFunctions(FunctionTable& table) {
  Define(table, "bcrypt", 1, 2, BcryptFn);
  Define(table, "rsadecrypt", 2, 2, RsaDecrypt);
}

}  // namespace strata
