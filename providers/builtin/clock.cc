#include "providers/builtin/clock.h"

#include <algorithm>
#include <thread>

namespace strata {
namespace {

class RealClock : public Clock {
 public:
  std::chrono::system_clock::time_point Now() override { return std::chrono::system_clock::now(); }

  bool Sleep(const OperationContext& ctx, Duration d, Duration tick,
             const std::function<void(Duration)>& on_tick) override {
    using SteadyClock = std::chrono::steady_clock;
    const auto start = SteadyClock::now();
    const auto end = start + d;
    auto next_tick = start + tick;
    while (true) {
      const auto now = SteadyClock::now();
      if (now >= end) return true;
      if (ctx.Cancelled() || ctx.DeadlinePassed(now)) return false;
      if (now >= next_tick) {
        if (on_tick) on_tick(std::chrono::duration_cast<Duration>(now - start));
        next_tick += tick;
      }
      const auto wake = std::min({end, next_tick, now + std::chrono::milliseconds(50)});
      std::this_thread::sleep_until(wake);
    }
  }
};

}  // namespace

std::shared_ptr<Clock> SystemClock() { return std::make_shared<RealClock>(); }

bool FakeClock::Sleep(const OperationContext& ctx, Duration d, Duration tick,
                      const std::function<void(Duration)>& on_tick) {
  Duration elapsed{0};
  while (elapsed < d) {
    if (before_tick) before_tick(elapsed);
    if (ctx.Cancelled()) return false;
    const Duration step = std::min(tick, d - elapsed);
    elapsed += step;
    slept_ += step;
    now_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(step);
    if (elapsed < d && on_tick) on_tick(elapsed);
  }
  return true;
}

}  // namespace strata
