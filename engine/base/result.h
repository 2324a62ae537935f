#pragma once
// Result<T, E>: a value, or the error that prevented it — the one way the layers below the
// engine's diagnostics report expected failures (a held lock, a throttled AWS call, a
// missing file). Exceptions stay for programmer errors; what the user must read becomes a
// Diagnostic at the layer that knows the file or the address.
//
// Each layer names its error type once: the state store's StateResult<T> carries a
// StateStatus, the aws wire library's aws::Result<T> an AwsError.

#include <cassert>
#include <utility>
#include <variant>

namespace strata::base {

//! Either a T or an E. Reading the side that is not there is a programmer error (asserted
//! in debug builds).
template <typename T, typename E>
class Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(E error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    assert(ok());
    return std::get<0>(state_);
  }
  T& value() & {
    assert(ok());
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(state_));
  }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

  const E& error() const& {
    assert(!ok());
    return std::get<1>(state_);
  }
  E&& error() && {
    assert(!ok());
    return std::get<1>(std::move(state_));
  }

 private:
  std::variant<T, E> state_;
};

//! The value of a Result that has none: Result<Unit, E> is a success or an E.
struct Unit {};

}  // namespace strata::base
