#include "engine/base/clock.h"

#include <thread>

namespace strata::base {

Clock::TimePoint SystemClock::Now() const { return std::chrono::system_clock::now(); }

void SystemClock::SleepFor(Duration d) {
  if (d.count() > 0) std::this_thread::sleep_for(d);
}

Clock::TimePoint FakeClock::Now() const {
  std::lock_guard lock(mu_);
  return now_;
}

void FakeClock::SleepFor(Duration d) {
  if (on_sleep) on_sleep(TotalSlept());
  if (d.count() <= 0) return;
  std::lock_guard lock(mu_);
  now_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
  slept_ += d;
}

void FakeClock::Advance(Duration d) {
  std::lock_guard lock(mu_);
  now_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
}

Clock::Duration FakeClock::TotalSlept() const {
  std::lock_guard lock(mu_);
  return slept_;
}

}  // namespace strata::base
