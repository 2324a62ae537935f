#pragma once
// Result<T>: a value or an AwsError. Expected failures (a throttled call, a missing
// profile, a 404) travel as values; exceptions are kept for programmer errors.

#include <cassert>
#include <utility>
#include <variant>

#include "providers/aws/core/aws_error.h"

namespace strata::aws {

//! Either a T or the AwsError that prevented it. Accessing the wrong side is a
//! programmer error (asserted in debug builds).
template <typename T>
class Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(AwsError error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

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

  const AwsError& error() const& {
    assert(!ok());
    return std::get<1>(state_);
  }
  AwsError&& error() && {
    assert(!ok());
    return std::get<1>(std::move(state_));
  }

 private:
  std::variant<T, AwsError> state_;
};

//! A Result with no value: success or an AwsError.
struct Unit {};
using Status = Result<Unit>;
inline Status OkStatus() { return Status(Unit{}); }

}  // namespace strata::aws
