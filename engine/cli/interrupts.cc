#include "engine/cli/interrupts.h"

#include "state/interrupt.h"

namespace strata::cli {

InterruptState& Interrupts() {
  static InterruptState state;
  return state;
}

void InstallCliInterruptHandler() {
  state::InstallInterruptHandler({.on_first_signal = [](int signal) {
    InterruptState& s = Interrupts();
    if (!s.graceful) return false;
    s.signal = signal;
    s.stop = true;
    return true;
  }});
}

}  // namespace strata::cli
