#pragma once
// Hostile YAML for the tests of the bounds in engine/value/limits.h (module files,
// -var-files, yamldecode).

#include <string>

namespace strata::testing {

//! The "billion laughs": nine keys a..i, each a list of ten aliases of the one before, so
//! about 600 bytes stand for 10^9 values. Each line starts with `indent`.
inline std::string BillionLaughsYaml(const std::string& indent = "") {
  std::string out = indent + "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    std::string alias = std::string("*") + static_cast<char>(c - 1);
    out += indent + c + ": &" + c + " [" + alias;
    for (int i = 1; i < 10; ++i) out += ", " + alias;
    out += "]\n";
  }
  return out;
}

}  // namespace strata::testing
