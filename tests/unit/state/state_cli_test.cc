#include <gtest/gtest.h>

#include "engine/cli/state_session.h"

namespace strata::cli {
namespace {

TEST(StateCliTest, ParsesLockTimeoutDurations) {
  EXPECT_EQ(ParseDuration("0")->count(), 0);
  EXPECT_EQ(ParseDuration("0s")->count(), 0);
  EXPECT_EQ(ParseDuration("500ms")->count(), 500);
  EXPECT_EQ(ParseDuration("10s")->count(), 10000);
  EXPECT_EQ(ParseDuration("1m30s")->count(), 90000);
  EXPECT_EQ(ParseDuration("1.5h")->count(), 5400000);
  EXPECT_FALSE(ParseDuration("").has_value());
  EXPECT_FALSE(ParseDuration("10").has_value());
  EXPECT_FALSE(ParseDuration("10x").has_value());
  EXPECT_FALSE(ParseDuration("s10s").has_value());
}

// Read by hand, not by std::regex (which recursed once per character of the flag).
TEST(StateCliTest, LongDurationsAreParsedOrRefusedWithoutCrashing) {
  EXPECT_EQ(ParseDuration(std::string(100000, '0') + "1s")->count(), 1000);
  EXPECT_FALSE(ParseDuration(std::string(100000, '1') + "s").has_value());  // overflows the milliseconds
  EXPECT_FALSE(ParseDuration("1.s").has_value());
  EXPECT_FALSE(ParseDuration("1m30").has_value());
}

}  // namespace
}  // namespace strata::cli
