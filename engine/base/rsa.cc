#include "engine/base/rsa.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <memory>

namespace strata::base {
namespace {

// OpenSSL's reason for the last failure, or `fallback`; clears the error queue either way.
std::string OpenSslReason(const char* fallback) {
  unsigned long code = ERR_peek_last_error();
  const char* reason = code ? ERR_reason_error_string(code) : nullptr;
  ERR_clear_error();
  return reason ? reason : fallback;
}

// OpenSSL 3.2 answers bad padding with random bytes ("implicit rejection", against timing
// attacks on servers); Terraform's function reports it, so ask for the error back.
bool ExplicitRejection(EVP_PKEY_CTX* ctx) {
#if OPENSSL_VERSION_NUMBER >= 0x30200000L
  return EVP_PKEY_CTX_ctrl_str(ctx, "rsa_pkcs1_implicit_rejection", "0") > 0;
#else
  (void)ctx;
  return true;
#endif
}

}  // namespace

RsaDecryptResult RsaDecryptPkcs1v15(std::string_view ciphertext, std::string_view pem_key) {
  RsaDecryptResult result;
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem_key.data(), static_cast<int>(pem_key.size())),
                                                BIO_free);
  // An empty passphrase callback: an encrypted key fails instead of prompting on the terminal.
  auto no_passphrase = [](char*, int, int, void*) { return 0; };
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr) : nullptr, EVP_PKEY_free);
  if (!key) {
    ERR_clear_error();
    result.key_error = true;
    result.error = "invalid private key: no key found";
    return result;
  }
  if (EVP_PKEY_base_id(key.get()) != EVP_PKEY_RSA) {
    result.key_error = true;
    result.error = "invalid private key: the key is not an RSA key";
    return result;
  }
  std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new(key.get(), nullptr),
                                                                  EVP_PKEY_CTX_free);
  size_t size = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(ciphertext.data());
  if (!ctx || EVP_PKEY_decrypt_init(ctx.get()) <= 0 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING) <= 0 ||
      !ExplicitRejection(ctx.get()) || EVP_PKEY_decrypt(ctx.get(), nullptr, &size, in, ciphertext.size()) <= 0) {
    result.error = "failed to decrypt: " + OpenSslReason("decryption error");
    return result;
  }
  std::string out(size, '\0');
  if (EVP_PKEY_decrypt(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &size, in, ciphertext.size()) <= 0) {
    result.error = "failed to decrypt: " + OpenSslReason("decryption error");
    return result;
  }
  out.resize(size);
  result.ok = true;
  result.plaintext = std::move(out);
  return result;
}

}  // namespace strata::base
