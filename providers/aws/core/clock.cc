#include "providers/aws/core/clock.h"

#include <cstdio>
#include <ctime>
#include <string>

namespace strata::aws {

namespace {

std::tm ToUtc(TimePoint t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return tm;
}

}  // namespace

std::string FormatAmzDate(TimePoint t) {
  std::tm tm = ToUtc(t);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

}  // namespace strata::aws
