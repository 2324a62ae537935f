#pragma once
// -parallelism for provider calls: the walk runs up to N graph nodes at once, and a counted
// resource's instances run side by side inside their node, so the provider calls themselves
// take one of N slots.

#include <algorithm>
#include <semaphore>

namespace strata {

class OperationSlots {
 public:
  explicit OperationSlots(int n) : slots_(std::clamp(n, 1, kMax)) {}

  //! Holds one slot for its lifetime.
  class Held {
   public:
    explicit Held(OperationSlots& s) : s_(s) { s_.slots_.acquire(); }
    ~Held() { s_.slots_.release(); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;

   private:
    OperationSlots& s_;
  };

 private:
  static constexpr int kMax = 4096;
  std::counting_semaphore<kMax> slots_;
};

}  // namespace strata
