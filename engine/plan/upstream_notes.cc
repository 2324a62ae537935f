#include "engine/plan/upstream_notes.h"

#include <fmt/format.h>

#include "engine/plan/diff_lines.h"

namespace strata {
namespace {

// "(eks serial 12 → 14)", or as much of it as is known.
std::string SerialsOf(const UpstreamOutputChange& c) {
  if (c.serial_then > 0 && c.serial_now > 0) return fmt::format(" ({} serial {} \u2192 {})", c.stage, c.serial_then, c.serial_now);
  if (c.serial_then > 0) return fmt::format(" ({} serial {} then)", c.stage, c.serial_then);
  if (c.serial_now > 0) return fmt::format(" ({} serial {} now)", c.stage, c.serial_now);
  return "";
}

}  // namespace

std::string RenderUpstreamNotesHuman(const Plan& plan, const HumanRenderOptions& options) {
  if (plan.upstream_changes.empty()) return "";
  std::string out;
  for (const UpstreamOutputChange& c : plan.upstream_changes) {
    std::string what = c.unavailable.empty() ? "has changed" : "can no longer be read";
    out += fmt::format("{} stage \"{}\" output \"{}\"{} {} since stage \"{}\" was last applied{}",
                       plan_render::Colored(options.color, plan_render::kBold, "Note:"), c.stage, c.output,
                       c.sensitive ? " (sensitive value)" : "", what, plan.stage, SerialsOf(c));
    out += c.unavailable.empty() ? ".\n" : ": " + c.unavailable + "\n";
  }
  return out + "\n";
}

}  // namespace strata
