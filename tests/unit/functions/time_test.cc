// formatdate, timeadd, timecmp, timestamp and plantimestamp. Expected values are Terraform
// 1.11's (`terraform console`), the documentation's examples first.
#include <gtest/gtest.h>

#include <chrono>

#include "engine/base/clock.h"
#include "engine/base/time_format.h"
#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

std::string FormatDate(const std::string& spec, const std::string& time) {
  return Call("formatdate", {S(spec), S(time)}).AsString();
}

std::string TimeAdd(const std::string& time, const std::string& duration) {
  return Call("timeadd", {S(time), S(duration)}).AsString();
}

base::Clock::TimePoint At(const std::string& rfc3339) {
  base::Clock::TimePoint t;
  EXPECT_TRUE(base::ParseRfc3339(rfc3339, &t)) << rfc3339;
  return t;
}

TEST(TimeFunctionsTest, FormatDateDocumentationExamples) {
  EXPECT_EQ(FormatDate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z"), "02 Jan 2018 23:12 UTC");
  EXPECT_EQ(FormatDate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z"), "Tuesday, 02-Jan-18 23:12:01 UTC");
  EXPECT_EQ(FormatDate("EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00"),
            "Tue, 02 Jan 2018 23:12:01 -0800");
  EXPECT_EQ(FormatDate("MMM DD, YYYY", "2018-01-02T23:12:01Z"), "Jan 02, 2018");
  EXPECT_EQ(FormatDate("HH:mmaa", "2018-01-02T23:12:01Z"), "11:12pm");
}

TEST(TimeFunctionsTest, FormatDateVerbsLiteralsAndZones) {
  EXPECT_EQ(FormatDate("M/D/YY H:m:s AA MMMM", "2018-01-02T03:04:05Z"), "1/2/18 3:4:5 AM January");
  EXPECT_EQ(FormatDate("YYYY-MM-DD", "2018-01-02T23:12:01.999999+01:00"), "2018-01-02");
  EXPECT_EQ(FormatDate("hh:mm ZZZZZ", "2018-01-02T23:12:01-00:30"), "23:12 -00:30");
  EXPECT_EQ(FormatDate("Z ZZZZ ZZZZZ ZZZ", "2018-01-02T23:12:01+05:30"), "+05:30 +0530 +05:30 +0530");
  EXPECT_EQ(FormatDate("Z ZZZZ ZZZZZ", "2018-01-02T23:12:01Z"), "Z +0000 +00:00");
  EXPECT_EQ(FormatDate("''", "2018-01-02T23:12:01Z"), "'");
  EXPECT_EQ(FormatDate("'o''clock' h", "2018-01-02T23:12:01Z"), "o'clock 23");
  EXPECT_EQ(FormatDate("H AA", "2018-01-02T00:05:01Z"), "12 AM");
  EXPECT_EQ(FormatDate("HH aa", "2018-01-02T12:05:01Z"), "12 pm");
}

TEST(TimeFunctionsTest, FormatDateRejectsBadVerbsOnTheFormatArgument) {
  auto error = [](const std::string& spec) { return CallError("formatdate", {S(spec), S("2018-01-02T23:12:01Z")}); };
  EXPECT_EQ(error("X").message, "invalid date format verb \"X\"");
  EXPECT_EQ(error("X").arg_index, 0);
  EXPECT_EQ(error("YYY").message, "invalid date format verb \"YYY\": year must either be \"YY\" or \"YYYY\"");
  EXPECT_EQ(error("ZZ").message, "invalid date format verb \"ZZ\": timezone must be Z, ZZZZ, or ZZZZZ");
  EXPECT_EQ(error("A").message, "invalid date format verb \"A\": must be \"AA\"");
  EXPECT_EQ(error("aaa").message, "invalid date format verb \"aaa\": must be \"aa\"");
  EXPECT_EQ(error("'h''s' 'x").message, "unterminated literal '");
}

TEST(TimeFunctionsTest, TimestampsMustBeRfc3339) {
  auto error = [](const std::string& time) { return CallError("formatdate", {S("YYYY"), S(time)}); };
  EXPECT_EQ(error("2018-01-02").message, "not a valid RFC3339 timestamp: missing required time introducer 'T'");
  EXPECT_EQ(error("2018-01-02").arg_index, 1);
  EXPECT_EQ(error("2018-01-02T23:12:01").message, "not a valid RFC3339 timestamp: end of string before UTC offset");
  EXPECT_EQ(error("2017-02-30T00:00:00Z").message, "not a valid RFC3339 timestamp: day out of range");
  EXPECT_EQ(error("2017-11-22T24:00:00Z").message,
            "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive");
  EXPECT_EQ(error("2017-11-22t00:00:00z").message, "not a valid RFC3339 timestamp: missing required time introducer 'T'");
  EXPECT_EQ(error("x").message, "not a valid RFC3339 timestamp: cannot use \"x\" as year");
  EXPECT_EQ(error("2018-13-02T23:12:01Z").message, "not a valid RFC3339 timestamp: month must be between 1 and 12 inclusive");
  EXPECT_EQ(FormatDate("YYYY-MM-DD", "2024-02-29T00:00:00Z"), "2024-02-29");  // a leap day
}

TEST(TimeFunctionsTest, TimeAddDocumentationExamplesAndEdges) {
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00Z", "10m"), "2017-11-22T00:10:00Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00Z", "-1h30m"), "2017-11-21T22:30:00Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00+05:00", "1.5h"), "2017-11-22T01:30:00+05:00");
  EXPECT_EQ(TimeAdd("2018-01-02T23:12:01+01:00", "2h"), "2018-01-03T01:12:01+01:00");
  EXPECT_EQ(TimeAdd("2024-02-28T23:00:00Z", "24h"), "2024-02-29T23:00:00Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00Z", "0"), "2017-11-22T00:00:00Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00Z", "+3s"), "2017-11-22T00:00:03Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00Z", ".5s"), "2017-11-22T00:00:00Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00Z", "1us2ms3\u00b5s"), "2017-11-22T00:00:00Z");
  // The fraction of a second is kept for the sum and dropped from the text.
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00.5Z", "0.5s"), "2017-11-22T00:00:01Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00.5Z", "1ns"), "2017-11-22T00:00:00Z");
  EXPECT_EQ(TimeAdd("2017-11-22T00:00:00.5Z", "-1s"), "2017-11-21T23:59:59Z");
}

TEST(TimeFunctionsTest, TimeAddRejectsDurationsAsGoDoes) {
  auto error = [](const std::string& d) { return CallError("timeadd", {S("2017-11-22T00:00:00Z"), S(d)}); };
  EXPECT_EQ(error("1d").message, "time: unknown unit \"d\" in duration \"1d\"");
  EXPECT_EQ(error("1d").arg_index, 1);
  EXPECT_EQ(error("").message, "time: invalid duration \"\"");
  EXPECT_EQ(error("-").message, "time: invalid duration \"-\"");
  EXPECT_EQ(error("h").message, "time: invalid duration \"h\"");
  EXPECT_EQ(error("1.5").message, "time: missing unit in duration \"1.5\"");
  EXPECT_EQ(error("99999999999999999999h").message, "time: invalid duration \"99999999999999999999h\"");
}

TEST(TimeFunctionsTest, TimeCmpComparesInstantsAcrossOffsets) {
  EXPECT_EQ(Call("timecmp", {S("2017-11-22T00:00:00Z"), S("2017-11-22T00:00:00Z")}), N(0));
  EXPECT_EQ(Call("timecmp", {S("2017-11-22T00:00:00Z"), S("2017-11-22T01:00:00Z")}), N(-1));
  EXPECT_EQ(Call("timecmp", {S("2017-11-22T01:00:00Z"), S("2017-11-22T00:00:00Z")}), N(1));
  EXPECT_EQ(Call("timecmp", {S("2017-11-22T01:00:00Z"), S("2017-11-22T00:00:00-01:00")}), N(0));
  EXPECT_EQ(Call("timecmp", {S("2017-11-22T00:00:00.5Z"), S("2017-11-22T00:00:00Z")}), N(1));
  FunctionError e = CallError("timecmp", {S("2017-11-22T01:00:00Z"), S("x")});
  EXPECT_EQ(e.arg_index, 1);
  EXPECT_EQ(e.message, "not a valid RFC3339 timestamp: cannot use \"x\" as year");
}

TEST(TimeFunctionsTest, TimestampReadsTheContextsClock) {
  base::FakeClock clock(At("2026-03-04T05:06:07Z") + std::chrono::milliseconds(900));
  FunctionContext ctx;
  ctx.clock = &clock;
  EXPECT_EQ(Call("timestamp", {}, ctx), S("2026-03-04T05:06:07Z"));
  clock.Advance(std::chrono::hours(1));
  EXPECT_EQ(Call("timestamp", {}, ctx), S("2026-03-04T06:06:07Z"));
  // Without a clock: the system's, in UTC with whole seconds.
  base::Clock::TimePoint now;
  EXPECT_TRUE(base::ParseRfc3339(Call("timestamp", {}).AsString(), &now));
}

TEST(TimeFunctionsTest, TimestampAndUuidAreUnknownWhilePlanning) {
  FunctionContext ctx;
  ctx.planning = true;
  EXPECT_TRUE(Call("timestamp", {}, ctx).IsUnknown());
  EXPECT_TRUE(Call("uuid", {}, ctx).IsUnknown());
}

TEST(TimeFunctionsTest, PlanTimestampIsThePlansTimeOrUnknown) {
  EXPECT_TRUE(Call("plantimestamp", {}).IsUnknown());  // outside a plan (validate, console)
  base::FakeClock clock(At("2030-01-01T00:00:00Z"));
  FunctionContext ctx;
  ctx.clock = &clock;
  ctx.planning = true;
  ctx.plan_time = At("2026-11-26T19:20:15Z");
  EXPECT_EQ(Call("plantimestamp", {}, ctx), S("2026-11-26T19:20:15Z"));
  EXPECT_EQ(Call("formatdate", {S("YYYY"), Call("plantimestamp", {}, ctx)}, ctx), S("2026"));
}

TEST(TimeFunctionsTest, TakeNoArgumentsWhereNoneAreDue) {
  EXPECT_EQ(CallError("timestamp", {S("x")}).message, "timestamp() takes 0 arguments, got 1");
  EXPECT_EQ(CallError("timeadd", {S("x")}).message, "timeadd() takes 2 arguments, got 1");
}

}  // namespace
}  // namespace strata
