#include "engine/plan/slice_pairs.h"

namespace strata::plan_render {
namespace {

// A before/after index pair of the longest common subsequence.
struct CommonPair {
  size_t before, after;
};

// Terraform's objchange.LongestCommonSubsequence, ported as written (its choice among
// equally long subsequences decides which elements a diff shows as moved).
std::vector<CommonPair> LongestCommon(size_t nx, size_t ny, const std::function<bool(size_t, size_t)>& same) {
  if (nx == 0 || ny == 0) return {};
  std::vector<int> c(nx * ny, 0);
  std::vector<bool> eqs(nx * ny, false);
  auto at = [nx](size_t x, size_t y) { return nx * y + x; };
  for (size_t y = 0; y < ny; ++y) {
    for (size_t x = 0; x < nx; ++x) {
      if (same(x, y)) {
        eqs[at(x, y)] = true;
        c[at(x, y)] = x == 0 || y == 0 ? 1 : c[at(x - 1, y - 1)] + 1;
      } else {
        int l = x > 0 ? c[at(x - 1, y)] : 0;
        int u = y > 0 ? c[at(x, y - 1)] : 0;
        c[at(x, y)] = l > u ? l : u;
      }
    }
  }
  std::vector<CommonPair> seq(static_cast<size_t>(c.back()));
  long x = static_cast<long>(nx) - 1, y = static_cast<long>(ny) - 1, i = static_cast<long>(seq.size()) - 1;
  while (x > -1 && y > -1 && i > -1) {
    size_t ux = static_cast<size_t>(x), uy = static_cast<size_t>(y);
    if (eqs[at(ux, uy)]) {
      seq[static_cast<size_t>(i--)] = {ux, uy};
      --x;
      --y;
    } else {
      int l = x > 0 ? c[at(ux - 1, uy)] : 0;
      int u = y > 0 ? c[at(ux, uy - 1)] : 0;
      if (l > u) --x;
      else --y;
    }
  }
  return seq;
}

}  // namespace

std::vector<SlicePair> PairSlices(size_t nb, size_t na, const std::function<bool(size_t, size_t)>& same,
                                  const std::function<bool(size_t)>& is_object_before,
                                  const std::function<bool(size_t)>& is_object_after) {
  std::vector<SlicePair> pairs;
  if (nb == na) {
    // A reordering: every before element is somewhere in after.
    bool reorder = true;
    for (size_t i = 0; i < nb && reorder; ++i) {
      bool found = false;
      for (size_t j = 0; j < na && !found; ++j) found = same(i, j);
      reorder = found;
    }
    if (!reorder) {
      for (size_t i = 0; i < nb; ++i) pairs.push_back({i, i});
      return pairs;
    }
  }
  std::vector<CommonPair> lcs = LongestCommon(nb, na, same);
  size_t bi = 0, ai = 0, li = 0;
  // Terraform compares with the common *values*; before[lcs.before] equals after[lcs.after].
  auto before_is_common = [&] { return li < lcs.size() && same(bi, lcs[li].after); };
  auto after_is_common = [&] { return li < lcs.size() && same(lcs[li].before, ai); };
  while (bi < nb || ai < na || li < lcs.size()) {
    while (bi < nb && !before_is_common()) {
      if (is_object_before(bi) && ai < na && is_object_after(ai) && !after_is_common()) {
        pairs.push_back({bi++, ai++});
        continue;
      }
      pairs.push_back({bi++, SlicePair::npos});
    }
    while (ai < na && !after_is_common()) pairs.push_back({SlicePair::npos, ai++});
    if (li < lcs.size()) {
      pairs.push_back({bi++, ai++});
      ++li;
    }
  }
  return pairs;
}

}  // namespace strata::plan_render
