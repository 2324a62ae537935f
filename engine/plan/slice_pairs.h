#pragma once
// Terraform's pairing of two sequences for a diff (jsonformat/collections.ProcessSlice):
// lines of a multi-line string, elements of a JSON array. Two sequences of the same length
// that are not a reordering of each other pair by position; otherwise a longest common
// subsequence keeps the shared elements, the others are deleted then created, and a
// deleted object meeting a created object at the same place is paired (diffed in place).

#include <cstddef>
#include <functional>
#include <vector>

namespace strata::plan_render {

//! One pair: indexes into before and after; `before == npos` is a created element,
//! `after == npos` a deleted one.
struct SlicePair {
  static constexpr size_t npos = static_cast<size_t>(-1);
  size_t before = npos;
  size_t after = npos;
};

//! `same(i, j)`: before[i] equals after[j]. `is_object_before(i)` / `is_object_after(j)`:
//! the element is an object (pairs in place when both sides are).
std::vector<SlicePair> PairSlices(size_t n_before, size_t n_after, const std::function<bool(size_t, size_t)>& same,
                                  const std::function<bool(size_t)>& is_object_before,
                                  const std::function<bool(size_t)>& is_object_after);

}  // namespace strata::plan_render
