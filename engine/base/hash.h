#pragma once
// Message digests and HMAC through OpenSSL: the one place Strata hashes bytes (the expression
// functions md5() ... sha512(), local_file's content digests, SigV4, state key ids).
//
// Contract: the functions return the raw digest bytes (use the *Hex forms or HexEncode for
// text). They never throw; they return an empty string only if OpenSSL itself fails, which a
// caller that must report it (the expression functions) checks for.

#include <string>
#include <string_view>

namespace strata::base {

enum class DigestAlgorithm { kMd5, kSha1, kSha256, kSha512 };

//! The raw digest of `data` (16, 20, 32 or 64 bytes).
std::string Digest(DigestAlgorithm algorithm, std::string_view data);
//! Lower-case hex of Digest(algorithm, data).
std::string DigestHex(DigestAlgorithm algorithm, std::string_view data);

//! Shorthands for the common case: the raw 32-byte SHA-256 digest and its lower-case hex.
std::string Sha256(std::string_view data);
std::string Sha256Hex(std::string_view data);

//! The raw 32-byte HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);

}  // namespace strata::base
