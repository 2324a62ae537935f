#include "sandbox/faults.h"

namespace strata::sandbox {

FaultInjector::FaultInjector(uint64_t seed, double throttle_probability, double fault_probability,
                             double lost_reply_probability)
    : random_(seed),
      throttle_probability_(throttle_probability),
      fault_probability_(fault_probability),
      lost_reply_probability_(lost_reply_probability) {}

double FaultInjector::Unit() {
  std::lock_guard lock(mutex_);  // SeededRandom is for one thread at a time
  return random_.NextUnit();
}

Injected FaultInjector::Draw() {
  if (throttle_probability_ <= 0 && fault_probability_ <= 0) return Injected::None;
  double u = Unit();
  if (u < throttle_probability_) return Injected::Throttle;
  if (u < throttle_probability_ + fault_probability_) return Injected::Fault;
  return Injected::None;
}

bool FaultInjector::LoseReply() {
  if (lost_reply_probability_ <= 0) return false;
  return Unit() < lost_reply_probability_;
}

}  // namespace strata::sandbox
