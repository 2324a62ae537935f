#include "providers/terraform_gaps.h"

#include <algorithm>
#include <iterator>

namespace strata::terraform_gaps {
namespace {

struct TerraformGap {
  ResourceMode mode;
  std::string_view type;
  std::string_view path;  // "" when the whole type is missing
};

// As the generator writes them: the missing types, then the missing arguments, each sorted.
constexpr TerraformGap kTerraformGaps[] = {
#include "providers/terraform_gaps.inc"
};

// A managed type's `timeouts` block is Strata's resource-level `timeouts:` (beside
// `properties:`), which every managed type takes: not a gap, whatever the provider lists.
bool IsResourceTimeouts(const TerraformGap& g) {
  return g.mode == ResourceMode::Managed && (g.path == "timeouts" || g.path.substr(0, 9) == "timeouts.");
}

bool IsGapOf(const TerraformGap& g, ResourceMode mode, std::string_view type) {
  return g.mode == mode && g.type == type && !IsResourceTimeouts(g);
}

}  // namespace

bool IsMissingType(ResourceMode mode, std::string_view type) {
  return std::any_of(std::begin(kTerraformGaps), std::end(kTerraformGaps),
                     [&](const TerraformGap& g) { return g.path.empty() && IsGapOf(g, mode, type); });
}

bool IsMissingArgument(ResourceMode mode, std::string_view type, std::string_view path) {
  return std::any_of(std::begin(kTerraformGaps), std::end(kTerraformGaps), [&](const TerraformGap& g) {
    if (g.path.empty() || !IsGapOf(g, mode, type)) return false;
    // The path itself, or a member of a block Strata lacks altogether.
    return path == g.path ||
           (path.size() > g.path.size() && path.substr(0, g.path.size()) == g.path && path[g.path.size()] == '.');
  });
}

std::vector<std::string> MissingArguments(ResourceMode mode, std::string_view type) {
  std::vector<std::string> out;
  for (const TerraformGap& g : kTerraformGaps) {
    if (!g.path.empty() && IsGapOf(g, mode, type)) out.emplace_back(g.path);
  }
  return out;
}

}  // namespace strata::terraform_gaps
