#pragma once
// Time and randomness for the AWS code: retries sleep and jitter through base::Clock and
// base::RandomSource, the signer and the credential cache read the time through Clock, so
// tests control all of it (engine/base/clock.h, random.h). Also the timestamp formats AWS
// speaks (SigV4's basic ISO 8601, RFC 3339).

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "engine/base/clock.h"
#include "engine/base/random.h"

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
//! Formats a time as "2015-08-30T12:36:00Z" (RFC 3339, UTC, seconds).
std::string FormatIso8601(TimePoint t);
//! Parses "2015-08-30T12:36:00Z", with optional fraction ("...:00.123Z") or "+00:00".
//! Returns false when the text is not such a timestamp.
bool ParseIso8601(std::string_view text, TimePoint* out);

}  // namespace strata::aws
