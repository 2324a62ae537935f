#include "providers/terraform_gaps.h"

#include <algorithm>
#include <iterator>

namespace strata::terraform_gaps {
namespace {

struct Gap {
  ResourceMode mode;
  std::string_view type;
  std::string_view path;  // "" when the whole type is missing
};

// Sorted by the generator: all missing types first, then the arguments, each by mode and name.
constexpr Gap kGaps[] = {
#include "providers/terraform_gaps.inc"
};

bool Matches(const Gap& g, ResourceMode mode, std::string_view type) { return g.mode == mode && g.type == type; }

}  // namespace

bool IsMissingType(ResourceMode mode, std::string_view type) {
  return std::any_of(std::begin(kGaps), std::end(kGaps), [&](const Gap& g) { return g.path.empty() && Matches(g, mode, type); });
}

bool IsMissingArgument(ResourceMode mode, std::string_view type, std::string_view path) {
  return std::any_of(std::begin(kGaps), std::end(kGaps), [&](const Gap& g) {
    if (g.path.empty() || !Matches(g, mode, type)) return false;
    // The path itself, or a member of a block Strata lacks altogether.
    return path == g.path ||
           (path.size() > g.path.size() && path.substr(0, g.path.size()) == g.path && path[g.path.size()] == '.');
  });
}

std::vector<std::string> MissingArguments(ResourceMode mode, std::string_view type) {
  std::vector<std::string> out;
  for (const Gap& g : kGaps) {
    if (!g.path.empty() && Matches(g, mode, type)) out.emplace_back(g.path);
  }
  return out;
}

}  // namespace strata::terraform_gaps
