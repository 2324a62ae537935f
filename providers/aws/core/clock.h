#pragma once
// Time and randomness seams: retries sleep and jitter through these, the signer and
// the credential cache read the time through Clock, so tests control all of it.

#include <chrono>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>

namespace strata::aws {

using TimePoint = std::chrono::system_clock::time_point;
using Duration = std::chrono::milliseconds;

//! Wall-clock time and sleeping. Implementations must be thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
  //! Blocks the calling thread for `d` (a fake clock advances its time instead).
  virtual void SleepFor(Duration d) = 0;
};

//! The real clock (std::chrono::system_clock, std::this_thread::sleep_for).
class SystemClock final : public Clock {
 public:
  TimePoint Now() const override;
  void SleepFor(Duration d) override;
};

//! A manual clock for tests: Now() is fixed until Advance() or SleepFor() moves it.
//! Records the total time slept.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(TimePoint start) : now_(start) {}
  TimePoint Now() const override;
  void SleepFor(Duration d) override;
  void Advance(Duration d);
  Duration TotalSlept() const;

 private:
  mutable std::mutex mu_;
  TimePoint now_;
  Duration slept_{0};
};

//! Uniform randomness in [0, 1) for backoff jitter. Implementations must be thread-safe.
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual double NextUnit() = 0;
};

//! A seeded Mersenne Twister behind a mutex.
class SystemRandom final : public RandomSource {
 public:
  SystemRandom();
  double NextUnit() override;

 private:
  std::mutex mu_;
  std::mt19937_64 engine_;
};

//! Always returns the same value (tests: 0.999 gives the maximal backoff, 0 none).
class FixedRandom final : public RandomSource {
 public:
  explicit FixedRandom(double value) : value_(value) {}
  double NextUnit() override { return value_; }

 private:
  double value_;
};

//! Formats a time as the SigV4 "20150830T123600Z" basic ISO 8601 form.
std::string FormatAmzDate(TimePoint t);
//! Formats a time as "2015-08-30T12:36:00Z" (RFC 3339, UTC, seconds).
std::string FormatIso8601(TimePoint t);
//! Parses "2015-08-30T12:36:00Z", with optional fraction ("...:00.123Z") or "+00:00".
//! Returns false when the text is not such a timestamp.
bool ParseIso8601(std::string_view text, TimePoint* out);

}  // namespace strata::aws
