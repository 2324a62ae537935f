#pragma once
// Hexadecimal: the one encoder (lower case, as digests, ids and SigV4 signatures are
// written) and decoder.
//
// Contract: HexEncode never fails; HexDecode accepts either case and returns nullopt when
// the length is odd or a character is not a hex digit. Neither throws.

#include <optional>
#include <string>
#include <string_view>

namespace strata::base {

std::string HexEncode(std::string_view bytes);
std::optional<std::string> HexDecode(std::string_view text);

}  // namespace strata::base
