#pragma once
// SIGINT / SIGTERM handling that never leaves a stage lock behind.
//
// Call InstallInterruptHandler() first thing in main(), before any thread starts. It blocks
// SIGINT and SIGTERM in the calling thread (so every later thread inherits the mask and no
// thread is interrupted inside SQLite), and starts one thread that waits for them (sigwait).
// On a signal:
//   - if `on_first_signal` is set and returns true, the program stops gracefully by itself
//     (cancels the running operation, lets the in-flight provider calls return, commits
//     their checkpoints, and exits through its normal path, whose ScopedStageLocks unlock);
//     a second signal exits at once;
//   - otherwise, at once: every lock in HeldLocks is released through a fresh database
//     connection, a line per lock goes to stderr, and the process _exits with 128 + signal
//     (130 for SIGINT, 143 for SIGTERM). Operations in flight stay pending in the journal,
//     with their idempotency tokens, for the next plan to reconcile.
// It also registers an atexit hook that releases locks still held when exit() is called.
//
// Child processes inherit the blocked mask across exec: a spawner (the exec provider, a
// credential_process) must call UnblockInterruptSignals() in the child before exec, or use
// posix_spawnattr_setsigmask with an empty set.

#include <functional>

namespace strata::state {

struct InterruptOptions {
  //! Called on the handler thread at the first signal; return true to stop gracefully.
  std::function<bool(int signal)> on_first_signal;
};

//! Idempotent: a second call only replaces the options.
void InstallInterruptHandler(InterruptOptions options = {});

//! Restores the default mask for SIGINT and SIGTERM in the calling thread (use in a forked
//! child before exec).
void UnblockInterruptSignals();

}  // namespace strata::state
