// Go-style durations: -lock-timeout, STRATA_PROGRESS_INTERVAL, time_sleep, exec and
// Kubernetes timeouts all read them with base::ParseDuration.

#include <gtest/gtest.h>

#include "engine/base/duration.h"

namespace strata::base {
namespace {

long long Millis(const std::string& text) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(*ParseDuration(text)).count();
}

TEST(DurationTest, ParsesGoDurations) {
  EXPECT_EQ(Millis("0"), 0);
  EXPECT_EQ(Millis("0s"), 0);
  EXPECT_EQ(Millis("500ms"), 500);
  EXPECT_EQ(Millis("10s"), 10000);
  EXPECT_EQ(Millis("1m30s"), 90000);
  EXPECT_EQ(Millis("1.5h"), 5400000);
  EXPECT_EQ(ParseDuration("2us")->count(), 2000);
  EXPECT_EQ(ParseDuration("3\xC2\xB5s")->count(), 3000);
  EXPECT_EQ(ParseDuration("7ns")->count(), 7);
  EXPECT_FALSE(ParseDuration("").has_value());
  EXPECT_FALSE(ParseDuration("10").has_value());
  EXPECT_FALSE(ParseDuration("10x").has_value());
  EXPECT_FALSE(ParseDuration("s10s").has_value());
  EXPECT_FALSE(ParseDuration("-1s").has_value());
}

// Read by hand, not by std::regex (which recursed once per character of the flag).
TEST(DurationTest, LongDurationsAreParsedOrRefusedWithoutCrashing) {
  EXPECT_EQ(Millis(std::string(100000, '0') + "1s"), 1000);
  EXPECT_FALSE(ParseDuration(std::string(100000, '1') + "s").has_value());  // overflows int64 nanoseconds
  EXPECT_FALSE(ParseDuration("1.s").has_value());
  EXPECT_FALSE(ParseDuration("1m30").has_value());
}

TEST(DurationTest, FormatsWholeSeconds) {
  EXPECT_EQ(FormatDuration(std::chrono::seconds(130)), "2m10s");
  EXPECT_EQ(FormatDuration(std::chrono::seconds(3725)), "1h2m5s");
  EXPECT_EQ(FormatDuration(std::chrono::milliseconds(900)), "0s");
}

}  // namespace
}  // namespace strata::base
