#pragma once
// Seam: wall-clock time and sleeping, for time_sleep and timestamps. The real clock sleeps;
// the fake one advances instantly so tests of long sleeps run in microseconds.

#include <chrono>
#include <functional>
#include <memory>

#include "providers/provider.h"

namespace strata {

class Clock {
 public:
  using Duration = std::chrono::nanoseconds;
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point Now() = 0;
  //! Sleeps for `d` unless ctx is cancelled or its deadline passes first; wakes at least
  //! every `tick` to call `on_tick(elapsed)` (progress). Returns true if it slept fully.
  virtual bool Sleep(const OperationContext& ctx, Duration d, Duration tick,
                     const std::function<void(Duration)>& on_tick) = 0;
};

//! The system clock; sleeps poll cancellation every 50 ms.
std::shared_ptr<Clock> SystemClock();

//! A manual clock for tests: Sleep advances Now() in ticks, checking the context each time;
//! `before_tick` runs before each tick (a test can cancel from it).
class FakeClock : public Clock {
 public:
  explicit FakeClock(std::chrono::system_clock::time_point start) : now_(start) {}
  std::chrono::system_clock::time_point Now() override { return now_; }
  bool Sleep(const OperationContext& ctx, Duration d, Duration tick,
             const std::function<void(Duration)>& on_tick) override;
  Duration total_slept() const { return slept_; }
  std::function<void(Duration)> before_tick;

 private:
  std::chrono::system_clock::time_point now_;
  Duration slept_{0};
};

}  // namespace strata
