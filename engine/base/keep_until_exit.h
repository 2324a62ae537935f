#pragma once
// Objects a short-lived process need not free. A no-op plan of 10,000 resources spent
// 6–10% of its CPU freeing the plan, the evaluation and the parsed module files just
// before exiting, memory the kernel takes back at once anyway. The CLI's main() turns
// keeping on; everywhere else (tests, benchmarks, anything calling the engine in process)
// KeepUntilExit does nothing and the caller's object is destroyed as usual.
//
// Only for plain memory: an object whose destructor releases something outside the
// process (a lock, a connection, a temporary file) must release it before being kept.

#include <memory>
#include <type_traits>
#include <utility>

namespace strata::base {

//! From now on KeepUntilExit keeps what it is given. Call once, early in main().
void EnableKeepUntilExit();
//! Whether EnableKeepUntilExit was called.
bool KeepingUntilExit();

namespace detail {
void KeepErased(std::shared_ptr<void> object);
}

//! Moves `object` where it lives until the process exits, never destroyed, when keeping is
//! on; otherwise leaves it alone (the caller destroys it as usual). The kept objects stay
//! reachable from a global, so leak checkers do not report them.
template <typename T>
void KeepUntilExit(T& object) {
  if (!KeepingUntilExit()) return;
  detail::KeepErased(std::make_shared<std::remove_cv_t<T>>(std::move(object)));
}

}  // namespace strata::base
