#pragma once
// Result<T>: a value or an AwsError (base::Result with the aws wire library's error type).
// Expected failures (a throttled call, a missing profile, a 404) travel as values;
// exceptions are kept for programmer errors.

#include "engine/base/result.h"
#include "providers/aws/core/aws_error.h"

namespace strata::aws {

template <typename T>
using Result = base::Result<T, AwsError>;

//! A Result with no value: success or an AwsError.
using Unit = base::Unit;
using Status = Result<Unit>;
inline Status OkStatus() { return Status(Unit{}); }

}  // namespace strata::aws
