// Time functions: formatdate, timeadd, timecmp, timestamp, plantimestamp. Timestamps are
// RFC 3339 texts, read with their UTC offset kept (formatdate and timeadd answer in the
// offset they were given); durations are Go's syntax, as Terraform's timeadd reads them.
// timestamp() reads FunctionContext::clock and plantimestamp() FunctionContext::plan_time,
// so that tests run at a time of their choosing.
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/base/clock.h"
#include "engine/base/duration.h"
#include "engine/base/time_format.h"
#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::Fail;
namespace chr = std::chrono;

//! A point in time with the UTC offset it was written in.
struct Timestamp {
  chr::sys_seconds utc;      // whole seconds since the epoch, UTC
  int64_t nanos = 0;         // the fraction of a second, 0..999999999
  int offset_seconds = 0;    // east of UTC
  bool zulu = false;         // written "Z" rather than "+00:00"
};

//! Parses Go's time.RFC3339 layout ("2006-01-02T15:04:05Z07:00", with an optional fraction),
//! which is what Terraform accepts; fails argument `index` with Terraform's reasons.
class TimestampParser {
 public:
  TimestampParser(std::string_view text, int index) : text_(text), index_(index) {}

  Timestamp Parse() {
    int year = Digits(4, "year");
    Expect('-', "month");
    int month = Digits(2, "month");
    Expect('-', "day");
    int day = Digits(2, "day");
    if (pos_ >= text_.size() || text_[pos_] != 'T') Reject("missing required time introducer 'T'");
    ++pos_;
    int hour = Digits(2, "hour");
    Expect(':', "minute");
    int minute = Digits(2, "minute");
    Expect(':', "second");
    int second = Digits(2, "second");
    Timestamp t;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      size_t start = pos_;
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
      if (pos_ == start) Reject(fmt::format("cannot use \"{}\" as fractional seconds", text_.substr(start - 1)));
      std::string_view fraction = text_.substr(start, pos_ - start);
      for (size_t i = 0; i < 9; ++i) t.nanos = t.nanos * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
    }
    if (pos_ >= text_.size()) Reject("end of string before UTC offset");
    if (text_[pos_] == 'Z') {
      t.zulu = true;
      ++pos_;
    } else if (text_[pos_] == '+' || text_[pos_] == '-') {
      int sign = text_[pos_++] == '-' ? -1 : 1;
      int hours = Digits(2, "UTC offset");
      Expect(':', "UTC offset");
      int minutes = Digits(2, "UTC offset");
      if (hours > 23 || minutes > 59) Reject("UTC offset out of range");
      t.offset_seconds = sign * (hours * 3600 + minutes * 60);
    } else {
      Reject(fmt::format("cannot use \"{}\" as UTC offset", text_.substr(pos_)));
    }
    if (pos_ != text_.size()) Reject(fmt::format("extra text after timestamp: \"{}\"", text_.substr(pos_)));

    if (month < 1 || month > 12) Reject("month must be between 1 and 12 inclusive");
    chr::year_month_day date{chr::year(year), chr::month(static_cast<unsigned>(month)),
                             chr::day(static_cast<unsigned>(day))};
    if (day < 1 || !date.ok()) Reject("day out of range");
    if (hour > 23) Reject("hour must be between 0 and 23 inclusive");
    if (minute > 59) Reject("minute must be between 0 and 59 inclusive");
    if (second > 59) Reject("second must be between 0 and 59 inclusive");
    t.utc = chr::sys_days(date) + chr::hours(hour) + chr::minutes(minute) + chr::seconds(second) -
            chr::seconds(t.offset_seconds);
    return t;
  }

 private:
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  [[noreturn]] void Reject(const std::string& why) const {
    Fail(index_, "not a valid RFC3339 timestamp: " + why);
  }

  int Digits(size_t n, const char* field) {
    int value = 0;
    for (size_t i = 0; i < n; ++i) {
      if (pos_ + i >= text_.size() || !IsDigit(text_[pos_ + i]))
        Reject(fmt::format("cannot use \"{}\" as {}", text_.substr(pos_), field));
      value = value * 10 + (text_[pos_ + i] - '0');
    }
    pos_ += n;
    return value;
  }

  void Expect(char c, const char* field) {
    if (pos_ >= text_.size() || text_[pos_] != c)
      Reject(fmt::format("cannot use \"{}\" as {}", text_.substr(pos_), field));
    ++pos_;
  }

  std::string_view text_;
  int index_;
  size_t pos_ = 0;
};

Timestamp TimestampArg(const Args& args, int index) {
  std::string text = functions::StringArg(args, index);
  return TimestampParser(text, index).Parse();
}

//! The calendar fields of `t` in its own offset.
struct LocalTime {
  int year, month, day, hour, minute, second, weekday;  // weekday: 0 = Sunday
};

LocalTime Local(const Timestamp& t) {
  chr::sys_seconds local = t.utc + chr::seconds(t.offset_seconds);
  chr::sys_days days = chr::floor<chr::days>(local);
  chr::year_month_day date{days};
  chr::hh_mm_ss<chr::seconds> time{local - days};
  return {int(date.year()),        int(unsigned(date.month())),   int(unsigned(date.day())),
          int(time.hours().count()), int(time.minutes().count()), int(time.seconds().count()),
          int(chr::weekday(days).c_encoding())};
}

//! "+05:30"; `colon` false gives "+0530".
std::string FormatOffset(int offset_seconds, bool colon) {
  int minutes = (offset_seconds < 0 ? -offset_seconds : offset_seconds) / 60;
  return fmt::format("{}{:02}{}{:02}", offset_seconds < 0 ? '-' : '+', minutes / 60, colon ? ":" : "",
                     minutes % 60);
}

//! Go's time.RFC3339 output: whole seconds, "Z" for a zero offset.
std::string FormatRfc3339In(const Timestamp& t) {
  LocalTime l = Local(t);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}", l.year, l.month, l.day, l.hour, l.minute,
                     l.second, t.offset_seconds == 0 ? "Z" : FormatOffset(t.offset_seconds, true));
}

// ---- formatdate ---------------------------------------------------------------------------

constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
constexpr const char* kWeekdays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                     "Thursday", "Friday", "Saturday"};

bool IsDateLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

//! The next token of a format: a quoted literal ('...', with '' for a quote), a run of one
//! repeated letter (a verb), or a run of other characters (copied as they are).
std::string_view NextFormatToken(std::string_view spec, size_t& pos) {
  size_t start = pos;
  if (spec[pos] == '\'') {
    for (++pos; pos < spec.size(); ++pos) {
      if (spec[pos] != '\'') continue;
      if (pos + 1 < spec.size() && spec[pos + 1] == '\'') {
        ++pos;
        continue;
      }
      ++pos;
      return spec.substr(start, pos - start);
    }
    return spec.substr(start);  // unterminated
  }
  if (IsDateLetter(spec[pos])) {
    while (pos < spec.size() && spec[pos] == spec[start]) ++pos;
  } else {
    while (pos < spec.size() && !IsDateLetter(spec[pos]) && spec[pos] != '\'') ++pos;
  }
  return spec.substr(start, pos - start);
}

//! `value` zero-padded to two digits when the verb is doubled ("MM"), else as it is ("M").
std::string VerbDigits(int value, size_t verb_length) {
  return verb_length == 2 ? fmt::format("{:02}", value) : std::to_string(value);
}

//! One verb of the format, or a FunctionError (argument 0) saying which spellings exist.
std::string FormatVerb(std::string_view verb, const Timestamp& t, const LocalTime& l) {
  auto bad = [&](const std::string& why) -> std::string {
    Fail(0, fmt::format("invalid date format verb \"{}\"{}", verb, why.empty() ? "" : ": " + why));
  };
  size_t n = verb.size();
  int hour12 = l.hour % 12 == 0 ? 12 : l.hour % 12;
  switch (verb[0]) {
    case 'Y':
      if (n == 4) return fmt::format("{:04}", l.year);
      if (n == 2) return fmt::format("{:02}", l.year % 100);
      return bad("year must either be \"YY\" or \"YYYY\"");
    case 'M':
      if (n == 4) return kMonths[l.month - 1];
      if (n == 3) return std::string(kMonths[l.month - 1]).substr(0, 3);
      if (n <= 2) return VerbDigits(l.month, n);
      return bad("month must either be \"M\", \"MM\", \"MMM\", or \"MMMM\"");
    case 'D':
      if (n <= 2) return VerbDigits(l.day, n);
      return bad("day of month must either be \"D\" or \"DD\"");
    case 'E':
      if (n == 4) return kWeekdays[l.weekday];
      if (n == 3) return std::string(kWeekdays[l.weekday]).substr(0, 3);
      return bad("day of week must either be \"EEE\" or \"EEEE\"");
    case 'h':
      if (n <= 2) return VerbDigits(l.hour, n);
      return bad("24-hour must either be \"h\" or \"hh\"");
    case 'H':
      if (n <= 2) return VerbDigits(hour12, n);
      return bad("12-hour must either be \"H\" or \"HH\"");
    case 'A':
    case 'a':
      if (n != 2) return bad(verb[0] == 'A' ? "must be \"AA\"" : "must be \"aa\"");
      if (verb[0] == 'A') return l.hour < 12 ? "AM" : "PM";
      return l.hour < 12 ? "am" : "pm";
    case 'm':
      if (n <= 2) return VerbDigits(l.minute, n);
      return bad("minute must either be \"m\" or \"mm\"");
    case 's':
      if (n <= 2) return VerbDigits(l.second, n);
      return bad("second must either be \"s\" or \"ss\"");
    case 'Z':
      if (n == 5) return FormatOffset(t.offset_seconds, true);
      if (n == 4) return FormatOffset(t.offset_seconds, false);
      if (n == 3) return t.offset_seconds == 0 ? "UTC" : FormatOffset(t.offset_seconds, false);
      if (n == 1) return t.offset_seconds == 0 ? "Z" : FormatOffset(t.offset_seconds, true);
      return bad("timezone must be Z, ZZZZ, or ZZZZZ");
    default:
      return bad("");
  }
}

Value FormatDate(const Args& args, const FunctionContext&) {
  std::string spec = functions::StringArg(args, 0);
  Timestamp t = TimestampArg(args, 1);
  LocalTime local = Local(t);
  std::string out;
  for (size_t pos = 0; pos < spec.size();) {
    std::string_view token = NextFormatToken(spec, pos);
    if (token[0] == '\'') {
      if (token.size() == 1 || token.back() != '\'') Fail(0, "unterminated literal '");
      if (token.size() == 2) {
        out += '\'';
        continue;
      }
      std::string_view inner = token.substr(1, token.size() - 2);
      for (size_t i = 0; i < inner.size(); ++i) {
        out += inner[i];
        if (inner[i] == '\'') ++i;  // '' inside a literal is one quote
      }
    } else if (IsDateLetter(token[0])) {
      out += FormatVerb(token, t, local);
    } else {
      out += token;
    }
  }
  return Value::String(out);
}

// ---- timeadd, timecmp ---------------------------------------------------------------------

Value TimeAdd(const Args& args, const FunctionContext&) {
  Timestamp t = TimestampArg(args, 0);
  std::string error;
  std::optional<chr::nanoseconds> d = base::ParseGoDuration(functions::StringArg(args, 1), &error);
  if (!d) Fail(1, error);
  chr::nanoseconds total = chr::nanoseconds(t.nanos) + *d;
  chr::seconds whole = chr::floor<chr::seconds>(total);
  t.utc += whole;
  t.nanos = (total - whole).count();
  return Value::String(FormatRfc3339In(t));
}

Value TimeCmp(const Args& args, const FunctionContext&) {
  Timestamp a = TimestampArg(args, 0);
  Timestamp b = TimestampArg(args, 1);
  auto key_a = std::make_pair(a.utc, a.nanos);
  auto key_b = std::make_pair(b.utc, b.nanos);
  return Value::Number(key_a < key_b ? -1 : key_b < key_a ? 1 : 0);
}

// ---- timestamp, plantimestamp -------------------------------------------------------------

Value TimestampNow(const Args&, const FunctionContext& ctx) {
  if (ctx.planning) return Value::Unknown();
  static const base::SystemClock kSystemClock;
  const base::Clock& clock = ctx.clock ? *ctx.clock : kSystemClock;
  return Value::String(base::FormatRfc3339(clock.Now()));
}

Value PlanTimestamp(const Args&, const FunctionContext& ctx) {
  if (!ctx.plan_time) return Value::Unknown();
  return Value::String(base::FormatRfc3339(*ctx.plan_time));
}

}  // namespace

void RegisterTimeFunctions(FunctionTable& table) {
  Define(table, "formatdate", 2, 2, FormatDate);
  Define(table, "timeadd", 2, 2, TimeAdd);
  Define(table, "timecmp", 2, 2, TimeCmp);
  Define(table, "timestamp", 0, 0, TimestampNow);
  Define(table, "plantimestamp", 0, 0, PlanTimestamp);
}

}  // namespace strata
