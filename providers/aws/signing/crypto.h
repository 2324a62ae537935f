#pragma once
// The hashing and encoding primitives SigV4 and the EKS token need (OpenSSL).

#include <string>
#include <string_view>

namespace strata::aws {

//! Raw 32-byte SHA-256 digest.
std::string Sha256(std::string_view data);
//! Lower-case hex SHA-256 digest (the SigV4 payload hash).
std::string Sha256Hex(std::string_view data);
//! Raw 32-byte HMAC-SHA256.
std::string HmacSha256(std::string_view key, std::string_view data);
//! Lower-case hex of raw bytes.
std::string HexEncode(std::string_view bytes);
//! Standard base64 with '=' padding.
std::string Base64Encode(std::string_view bytes);
//! base64url ('-' and '_') without padding (Go's RawURLEncoding).
std::string Base64UrlEncodeNoPad(std::string_view bytes);
//! Decodes standard or url-safe base64, padded or not. Returns false on bad input.
bool Base64Decode(std::string_view text, std::string* out);

}  // namespace strata::aws
