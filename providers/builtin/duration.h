#pragma once
// Go's duration syntax, which Terraform's time_sleep and our exec timeout use:
// "30s", "1m30s", "1h", "500ms", "1.5s", "2us".

#include <chrono>
#include <optional>
#include <string>

namespace strata::builtin {

//! nullopt when `text` is not a duration (an empty string is not one either).
std::optional<std::chrono::nanoseconds> ParseDuration(const std::string& text);
//! "2m10s"-style, whole seconds.
std::string FormatDuration(std::chrono::nanoseconds d);

}  // namespace strata::builtin
