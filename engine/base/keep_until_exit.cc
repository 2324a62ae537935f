#include "engine/base/keep_until_exit.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace strata::base {
namespace {

std::atomic<bool> keeping{false};

// Allocated once and never deleted, so that nothing kept is destroyed at exit (a static
// vector's destructor would free everything again).
struct Kept {
  std::mutex mutex;
  std::vector<std::shared_ptr<void>> objects;
};

Kept& KeptObjects() {
  static Kept* kept = new Kept;
  return *kept;
}

}  // namespace

void EnableKeepUntilExit() { keeping = true; }

bool KeepingUntilExit() { return keeping; }

namespace detail {

void KeepErased(std::shared_ptr<void> object) {
  Kept& kept = KeptObjects();
  std::lock_guard lock(kept.mutex);
  kept.objects.push_back(std::move(object));
}

}  // namespace detail
}  // namespace strata::base
