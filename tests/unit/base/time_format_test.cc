// engine/base's RFC 3339 timestamps: what is written is read back, the variants AWS sends
// are read, and what is not a timestamp (or not a date) is refused.
#include <gtest/gtest.h>

#include "engine/base/time_format.h"

namespace strata::base {
namespace {

using std::chrono::system_clock;

system_clock::time_point At(int64_t unix_seconds) { return system_clock::time_point(std::chrono::seconds(unix_seconds)); }

TEST(TimeFormatTest, FormatsUtcWholeSecondsAndReadsItBack) {
  EXPECT_EQ(FormatRfc3339(At(1440938160)), "2015-08-30T12:36:00Z");
  EXPECT_EQ(FormatRfc3339(At(1440938160) + std::chrono::milliseconds(999)), "2015-08-30T12:36:00Z");
  system_clock::time_point t;
  ASSERT_TRUE(ParseRfc3339("2015-08-30T12:36:00Z", &t));
  EXPECT_EQ(t, At(1440938160));
}

TEST(TimeFormatTest, ReadsTheVariantsAwsSends) {
  system_clock::time_point t;
  for (const char* text : {"2015-08-30T12:36:00.123Z", "2015-08-30t12:36:00z", "2015-08-30T12:36:00+00:00",
                           "2015-08-30T12:36:00"}) {
    ASSERT_TRUE(ParseRfc3339(text, &t)) << text;
    EXPECT_EQ(t, At(1440938160)) << text;
  }
}

TEST(TimeFormatTest, RefusesWhatIsNotATimestamp) {
  system_clock::time_point t;
  for (const char* text : {"", "2015-08-30", "2015-08-30 12:36:00Z", "2015-02-30T12:36:00Z", "2015-08-30T12:36:00+02:00",
                           "20150830T123600Z", "2015-08-30T12:36:0xZ"}) {
    EXPECT_FALSE(ParseRfc3339(text, &t)) << text;
  }
}

}  // namespace
}  // namespace strata::base
