#pragma once
// Byte-string encodings used by the key parser and the sealed-value format.

#include <optional>
#include <string>
#include <string_view>

namespace strata::state::crypto {

std::string Base64Encode(std::string_view bytes);
//! Standard alphabet with padding; whitespace is not allowed. nullopt when malformed.
std::optional<std::string> Base64Decode(std::string_view text);
std::string HexEncode(std::string_view bytes);
//! nullopt when the length is odd or a character is not hex.
std::optional<std::string> HexDecode(std::string_view text);

}  // namespace strata::state::crypto
