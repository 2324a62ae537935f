#pragma once
// Bounds on the shape of input, so that a mistaken or hostile file, expression or decoded
// document gets an error instead of exhausting the stack or the memory. Every check reads
// its bound from here (the instance limit, which strata.yaml can raise, is LimitsSettings in
// engine/config/project.h); the README's Limits section states them.

#include <cstddef>

namespace strata {

//! How deeply expressions, template directives, and JSON and YAML documents (module files,
//! strata.yaml, -var-files, jsondecode, yamldecode) may nest. Checked before recursing, so
//! the deepest accepted input stays far from the end of the stack, under ASan too. It sits
//! below yaml-cpp's own guard (500 levels), so YAML input gets this bound's message.
inline constexpr int kMaxNestingDepth = 256;

//! How many values one YAML document may stand for once its aliases (*name) are expanded:
//! a few hundred bytes of nested aliases ("billion laughs") would otherwise stand for
//! billions. Plain documents reach this only at tens of megabytes.
inline constexpr size_t kMaxYamlValues = 1'000'000;
//! How many bytes base64gunzip may inflate to: a few kilobytes of gzip can stand for
//! gigabytes ("zip bomb").
inline constexpr size_t kMaxDecompressedBytes = 64 * 1024 * 1024;

}  // namespace strata
