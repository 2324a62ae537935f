#include "engine/core/lifecycle.h"

#include <fmt/format.h>

namespace strata {

IgnoreChanges ParseIgnoreChanges(const LifecycleConfig& lifecycle, Diagnostics& diags) {
  IgnoreChanges ignore;
  for (const std::string& text : lifecycle.ignore_changes) {
    if (text == "all") {
      ignore.all = true;
      continue;
    }
    std::optional<AttrPath> path = AttrPath::Parse(text);
    if (!path) {
      diags.Error("Invalid ignore_changes entry",
                  fmt::format("\"{}\" is not an attribute path (write tags, tags[\"env\"] or all).", text), lifecycle.range);
      continue;
    }
    ignore.paths.push_back(*path);
  }
  return ignore;
}

}  // namespace strata
