#pragma once
// The process's answer to SIGINT/SIGTERM, shared by main() and the verbs: outside an apply a
// signal releases held locks and exits at once (state/interrupt.h); during an apply the
// first one only asks the apply to stop starting operations, and a second exits at once.

#include <atomic>

namespace strata::cli {

struct InterruptState {
  //! Set by the first signal while `graceful` is on.
  std::atomic<bool> stop{false};
  //! That signal's number (SIGINT, SIGTERM): a stopped apply exits with 128 + it, as a
  //! shell expects of a process a signal ended.
  std::atomic<int> signal{0};
  //! On while an apply runs.
  std::atomic<bool> graceful{false};
};

//! The process-wide state.
InterruptState& Interrupts();

//! Installs the handler (call first thing in main, before any thread starts).
void InstallCliInterruptHandler();

//! Turns graceful stopping on for its lifetime.
class GracefulStopScope {
 public:
  GracefulStopScope() { Interrupts().graceful = true; }
  ~GracefulStopScope() { Interrupts().graceful = false; }
  GracefulStopScope(const GracefulStopScope&) = delete;
  GracefulStopScope& operator=(const GracefulStopScope&) = delete;
};

}  // namespace strata::cli
