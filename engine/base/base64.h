#pragma once
// Base64 (RFC 4648): the one encoder and decoder, for every layer that publishes or reads
// base64 (the expression functions, the builtin and AWS providers, sealed state values and
// state keys, the sandbox).
//
// Contract:
//  - Base64Encode writes the standard ("+/") or URL-safe ("-_") alphabet, with '=' padding
//    unless asked not to. It never fails.
//  - Base64Decode returns nullopt for malformed text and never throws. What counts as
//    malformed is the caller's choice of Base64Input; each mode reproduces exactly what its
//    callers accepted before the decoders were folded into this one, so a value that decoded
//    once (a state key, an import id) decodes the same way now.

#include <optional>
#include <string>
#include <string_view>

namespace strata::base {

enum class Base64Alphabet {
  kStandard,  //!< "+/" (RFC 4648 section 4)
  kUrlSafe,   //!< "-_" (RFC 4648 section 5)
};

std::string Base64Encode(std::string_view bytes, Base64Alphabet alphabet = Base64Alphabet::kStandard,
                         bool pad = true);

//! What Base64Decode accepts.
enum class Base64Input {
  //! Standard alphabet, length a multiple of 4, '=' only as one or two final padding
  //! characters (Terraform's base64decode).
  kStrict,
  //! Standard or URL-safe alphabet (mixed), padding optional: any trailing '=' are ignored,
  //! and only a lone final character (which cannot hold a byte) is refused. For ids and
  //! tokens that may come either way (random_id imports, local_file content_base64, JWTs).
  kLenient,
  //! kStrict, except that a '=' before the final padding reads as six zero bits, as OpenSSL's
  //! EVP_DecodeBlock reads it. State keys and sealed values were parsed that way; a key that
  //! was base64 to them must stay base64 (it would otherwise become a passphrase).
  kOpenSsl,
};

std::optional<std::string> Base64Decode(std::string_view text,
                                        Base64Input input = Base64Input::kStrict);

}  // namespace strata::base
