#pragma once
// Characters as Terraform counts them: extended grapheme clusters (Unicode UAX #29), so that
// "é" written as e + a combining accent, a flag, or a family emoji joined by ZWJs is one
// character to length, substr, strrev and format's width and precision. ICU finds the
// boundaries; ASCII text, where the only multi-byte cluster is CR LF, never reaches it.
// Private to engine/expr/functions/.

#include <string>
#include <string_view>
#include <vector>

namespace strata::functions {

//! The clusters of `s` (UTF-8), in order, as views into `s`.
std::vector<std::string_view> Graphemes(std::string_view s);
//! How many clusters `s` has (Graphemes(s).size(), without building them for ASCII).
size_t GraphemeCount(std::string_view s);

}  // namespace strata::functions
