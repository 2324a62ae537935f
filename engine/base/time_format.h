#pragma once
// The one timestamp text Strata writes and reads: RFC 3339 in UTC with whole seconds,
// "2015-08-30T12:36:00Z" — what Terraform's JSON, AWS's APIs, state history and the
// time_sleep id use.

#include <chrono>
#include <string>
#include <string_view>

namespace strata::base {

//! "2015-08-30T12:36:00Z" (UTC; a fraction of a second is dropped).
std::string FormatRfc3339(std::chrono::system_clock::time_point t);
//! Parses "2015-08-30T12:36:00Z", with an optional fraction ("...:00.123Z"), a lower-case
//! "t"/"z", "+00:00" or no zone (read as UTC). False when the text is not such a timestamp
//! or names no real date.
bool ParseRfc3339(std::string_view text, std::chrono::system_clock::time_point* out);

}  // namespace strata::base
