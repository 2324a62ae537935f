#pragma once
// Throttling and fault injection: a seeded PRNG decides which calls are refused, so a
// given seed and call order refuse the same calls on every run. Thread-safe.

#include <cstdint>
#include <mutex>

#include "engine/base/random.h"

namespace strata::sandbox {

enum class Injected { None, Throttle, Fault };

class FaultInjector {
 public:
  //! Probabilities in [0,1]; their sum beyond 1 favours throttling.
  FaultInjector(uint64_t seed, double throttle_probability, double fault_probability,
                double lost_reply_probability = 0);

  //! One draw per call, before it runs: throttle with the first probability, else fail
  //! with the second.
  Injected Draw();
  //! One draw per call that changed the world, after it committed: true to lose its answer.
  bool LoseReply();

 private:
  //! A uniform draw in [0,1).
  double Unit();

  std::mutex mutex_;
  base::SeededRandom random_;  // the same seed, the same faults
  double throttle_probability_;
  double fault_probability_;
  double lost_reply_probability_;
};

}  // namespace strata::sandbox
