#pragma once
// Go's duration syntax, which Terraform's time_sleep, our exec and Kubernetes timeouts and
// the -lock-timeout flag use: "30s", "1m30s", "1h", "500ms", "1.5s", "2us", and "0".

#include <chrono>
#include <optional>
#include <string>

namespace strata::base {

//! nullopt when `text` is not a duration: empty, a number without a unit ("10"), an unknown
//! unit, "1." or ".5s", or more than int64 nanoseconds (about 292 years). Read by hand, not
//! by std::regex, which recursed once per character of long input.
std::optional<std::chrono::nanoseconds> ParseDuration(const std::string& text);
//! Exactly Go's time.ParseDuration, as Terraform's timeadd reads durations: an optional sign,
//! then numbers (".5" and "1." allowed) each with a unit (ns, us, µs, ms, s, m, h); "0" alone
//! needs none. nullopt with Go's message in `error` ("time: unknown unit \"d\" in duration
//! \"1d\"") otherwise, or beyond int64 nanoseconds.
std::optional<std::chrono::nanoseconds> ParseGoDuration(const std::string& text, std::string* error);
//! "2m10s"-style, whole seconds.
std::string FormatDuration(std::chrono::nanoseconds d);

}  // namespace strata::base
