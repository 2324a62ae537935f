#include "state/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "state/lock_guard.h"

namespace strata::state {
namespace {

std::mutex g_mu;
InterruptOptions* g_options = nullptr;  // guarded by g_mu; leaked on purpose (used until _exit)
bool g_installed = false;

void WriteErr(const std::string& s) {
  ssize_t ignored = write(STDERR_FILENO, s.data(), s.size());
  (void)ignored;
}

[[noreturn]] void ReleaseAndExit(int sig) {
  for (const auto& what : HeldLocks::Instance().ReleaseAll()) {
    WriteErr("Interrupted: released the state lock of " + what + "\n");
  }
  _exit(128 + sig);
}

void WaitLoop(sigset_t set) {
  bool stopping = false;
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) continue;
    if (!stopping) {
      std::function<bool(int)> first;
      {
        std::lock_guard<std::mutex> g(g_mu);
        first = g_options->on_first_signal;
      }
      if (first && first(sig)) {
        stopping = true;
        WriteErr("Stopping gracefully: waiting for operations in flight to finish (interrupt again to exit now)\n");
        continue;
      }
    }
    ReleaseAndExit(sig);
  }
}

sigset_t InterruptSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void InstallInterruptHandler(InterruptOptions options) {
  std::lock_guard<std::mutex> g(g_mu);
  if (!g_options) g_options = new InterruptOptions();
  *g_options = std::move(options);
  if (g_installed) return;
  g_installed = true;
  sigset_t set = InterruptSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(WaitLoop, set).detach();
  std::atexit([] { HeldLocks::Instance().ReleaseAll(); });
}

void UnblockInterruptSignals() {
  sigset_t set = InterruptSet();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace strata::state
