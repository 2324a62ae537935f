#include "providers/builtin/sleep.h"

#include <algorithm>

namespace strata::builtin {

bool SleepWithProgress(base::Clock& clock, const OperationContext& ctx, base::Clock::Duration d,
                       base::Clock::Duration tick,
                       const std::function<void(base::Clock::Duration elapsed)>& on_tick) {
  using Duration = base::Clock::Duration;
  constexpr Duration kStep = std::chrono::milliseconds(50);
  Duration elapsed{0};
  Duration next_tick = tick;
  while (elapsed < d) {
    if (ctx.Cancelled() || ctx.DeadlinePassed()) return false;
    const Duration step = std::min({d - elapsed, next_tick - elapsed, kStep});
    clock.SleepFor(step);
    elapsed += step;
    if (elapsed >= next_tick) {
      if (elapsed < d && on_tick) on_tick(elapsed);
      next_tick += tick;
    }
  }
  return true;
}

}  // namespace strata::builtin
