#pragma once
// Time and randomness for the AWS code: retries sleep and jitter through base::Clock and
// base::RandomSource, the signer and the credential cache read the time through Clock, so
// tests control all of it (engine/base/clock.h, random.h). Also SigV4's basic ISO 8601
// timestamp.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "engine/base/clock.h"
#include "engine/base/random.h"
#include "engine/base/time_format.h"

namespace strata::aws {

using TimePoint = std::chrono::system_clock::time_point;
using Duration = std::chrono::milliseconds;

// The clock and randomness seams are engine/base's; the AWS code names them unqualified.
using base::Clock;
using base::FakeClock;
using base::FixedRandom;
using base::RandomSource;
using base::SystemClock;
using base::SystemRandom;

//! Formats a time as the SigV4 "20150830T123600Z" basic ISO 8601 form.
std::string FormatAmzDate(TimePoint t);
// RFC 3339 ("2015-08-30T12:36:00Z", AWS's JSON and credential timestamps) is engine/base's.
using base::FormatRfc3339;
using base::ParseRfc3339;

}  // namespace strata::aws
