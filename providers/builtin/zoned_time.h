#pragma once
// Timestamps as hashicorp/time's types keep them: an instant with the UTC offset it was
// written in (Go's time.Time after time.Parse(time.RFC3339, ...)), so a time_static or
// time_rotating given "2024-03-01T09:00:00+02:00" reports hour 9 and writes the offset
// back. Strata's own timestamps (engine/base/time_format.h) are UTC only.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <map>

#include "engine/value/schema.h"
#include "engine/value/value.h"

namespace strata::builtin {

struct ZonedTime {
  std::chrono::sys_seconds instant;  // whole seconds, as Go's RFC 3339 format writes them
  int offset_minutes = 0;            // east of UTC

  static ZonedTime Utc(std::chrono::system_clock::time_point t);
};

//! Parses RFC 3339 as Go's time.RFC3339 layout does: "2006-01-02T15:04:05Z07:00", an
//! optional fraction of a second (dropped), "Z" or "+hh:mm" / "-hh:mm". Nullopt otherwise.
std::optional<ZonedTime> ParseZonedRfc3339(std::string_view text);
//! Go's time.RFC3339 format: "Z" for UTC, the offset otherwise.
std::string FormatZonedRfc3339(const ZonedTime& t);
//! Go's Time.AddDate in the time's own offset: out-of-range days and months roll over
//! (January 31 plus one month is March 2 or 3).
ZonedTime AddDate(const ZonedTime& t, int64_t years, int64_t months, int64_t days);

//! `v` with year, month, day, hour, minute and second of `t` (in its offset) and `unix`.
Value WithTimeFields(Value v, const ZonedTime& t);
//! `attributes` with those fields added, computed numbers.
std::map<std::string, AttributeSchema> WithTimeFieldAttributes(std::map<std::string, AttributeSchema> attributes);

}  // namespace strata::builtin
