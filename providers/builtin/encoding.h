#pragma once
// Encodings and digests the builtin types publish: base64 (standard and URL-safe), hex,
// and MD5/SHA-1/SHA-256/SHA-512 (OpenSSL).

#include <optional>
#include <string>

namespace strata::builtin {

std::string Base64Encode(const std::string& bytes, bool url_safe = false, bool pad = true);
//! Standard or URL-safe alphabet, padding optional; nullopt when malformed.
std::optional<std::string> Base64Decode(const std::string& text);
std::string HexEncode(const std::string& bytes);

enum class Digest { Md5, Sha1, Sha256, Sha512 };
//! The raw digest bytes.
std::string DigestOf(Digest which, const std::string& data);
inline std::string DigestHex(Digest which, const std::string& data) {
  return HexEncode(DigestOf(which, data));
}

}  // namespace strata::builtin
