#pragma once
// RSA decryption through OpenSSL, for the rsadecrypt() function: PKCS #1 v1.5 padding, as
// Terraform's rsadecrypt (Go's rsa.DecryptPKCS1v15) uses, with a PEM private key.

#include <string>
#include <string_view>

namespace strata::base {

struct RsaDecryptResult {
  bool ok = false;
  std::string plaintext;
  //! When !ok: the key could not be used (true) or the ciphertext not decrypted (false).
  bool key_error = false;
  //! When !ok: why ("invalid private key: no key found", "failed to decrypt: decryption error").
  std::string error;
};

//! Decrypts `ciphertext` (raw bytes) with the RSA private key in `pem_key` (PKCS #1 "RSA
//! PRIVATE KEY" or PKCS #8 "PRIVATE KEY", unencrypted). Never throws.
RsaDecryptResult RsaDecryptPkcs1v15(std::string_view ciphertext, std::string_view pem_key);

}  // namespace strata::base
