#pragma once
// The number form that module files, -var-files and yamldecode share for plain YAML scalars,
// checked by hand (linear, no regular expression).

#include <string_view>

namespace strata {

//! True for the decimal numbers of the YAML 1.2 core schema:
//! [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool IsYamlDecimal(std::string_view s);

}  // namespace strata
