#pragma once
// Time seam: wall-clock time and sleeping. Whatever waits or stamps times (retry backoff,
// credential expiry, EKS waiters, time_sleep, timestamps in ids) reads them through a Clock,
// so that tests run long waits instantly and at a time of their choosing.
//
// Contract: implementations are thread-safe. Now() is wall time (std::chrono::system_clock);
// SleepFor blocks at least `d` (SystemClock) or moves the time on by exactly `d` (FakeClock),
// and does nothing for d <= 0. Sleeping is not cancellable here: callers that must honour a
// cancellation sleep in short steps and check between them.

#include <chrono>
#include <functional>
#include <mutex>

namespace strata::base {

class Clock {
 public:
  using TimePoint = std::chrono::system_clock::time_point;
  using Duration = std::chrono::nanoseconds;

  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
  virtual void SleepFor(Duration d) = 0;
};

//! std::chrono::system_clock and std::this_thread::sleep_for.
class SystemClock final : public Clock {
 public:
  TimePoint Now() const override;
  void SleepFor(Duration d) override;
};

//! A manual clock for tests: Now() stays put until Advance() or SleepFor() moves it, and the
//! time slept is recorded.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(TimePoint start) : now_(start) {}
  TimePoint Now() const override;
  void SleepFor(Duration d) override;
  void Advance(Duration d);
  //! The sum of every SleepFor so far (Advance does not count).
  Duration TotalSlept() const;

  //! When set, runs at the start of each SleepFor with TotalSlept() before it, so a test can
  //! act in the middle of a wait (cancel the operation, say). Set it before sharing the clock.
  std::function<void(Duration slept_before)> on_sleep;

 private:
  mutable std::mutex mu_;
  TimePoint now_;
  Duration slept_{0};
};

}  // namespace strata::base
