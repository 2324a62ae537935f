#include "providers/builtin/zoned_time.h"

#include <charconv>
#include <cstdio>

#include "providers/attributes.h"

namespace strata::builtin {
namespace {

using namespace std::chrono;

bool ZonedDigits(std::string_view text, size_t pos, size_t len, int* out) {
  if (pos + len > text.size()) return false;
  const char* first = text.data() + pos;
  for (size_t i = 0; i < len; ++i) {
    if (first[i] < '0' || first[i] > '9') return false;
  }
  auto [ptr, ec] = std::from_chars(first, first + len, *out);
  return ec == std::errc() && ptr == first + len;
}

std::string ZonedTwo(int n) { return std::string(1, char('0' + n / 10)) + char('0' + n % 10); }

//! The wall-clock reading of `t` in its offset.
local_seconds Local(const ZonedTime& t) {
  return local_seconds{t.instant.time_since_epoch() + minutes{t.offset_minutes}};
}

}  // namespace

ZonedTime ZonedTime::Utc(system_clock::time_point t) { return {floor<seconds>(t), 0}; }

std::optional<ZonedTime> ParseZonedRfc3339(std::string_view text) {
  int y, mo, d, h, mi, s;
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || !ZonedDigits(text, 0, 4, &y) || !ZonedDigits(text, 5, 2, &mo) ||
      !ZonedDigits(text, 8, 2, &d) || !ZonedDigits(text, 11, 2, &h) || !ZonedDigits(text, 14, 2, &mi) ||
      !ZonedDigits(text, 17, 2, &s) || h > 23 || mi > 59 || s > 59) {
    return std::nullopt;
  }
  size_t pos = 19;
  if (text[pos] == '.') {
    size_t start = ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    if (pos == start) return std::nullopt;
  }
  std::string_view zone = text.substr(pos);
  int offset = 0;
  if (zone != "Z") {
    int zh, zm;
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' ||
        !ZonedDigits(zone, 1, 2, &zh) || !ZonedDigits(zone, 4, 2, &zm) || zh > 23 || zm > 59) {
      return std::nullopt;
    }
    offset = (zone[0] == '-' ? -1 : 1) * (zh * 60 + zm);
  }
  year_month_day ymd{year{y}, month{unsigned(mo)}, day{unsigned(d)}};
  if (!ymd.ok()) return std::nullopt;
  sys_seconds local{sys_days{ymd} + hours{h} + minutes{mi} + seconds{s}};
  return ZonedTime{local - minutes{offset}, offset};
}

std::string FormatZonedRfc3339(const ZonedTime& t) {
  local_seconds local = Local(t);
  local_days date = floor<days>(local);
  year_month_day ymd{date};
  hh_mm_ss<seconds> clock{local - date};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d", int(ymd.year()), unsigned(ymd.month()),
                unsigned(ymd.day()), int(clock.hours().count()), int(clock.minutes().count()),
                int(clock.seconds().count()));
  std::string out = buf;
  if (t.offset_minutes == 0) return out + "Z";
  int off = t.offset_minutes < 0 ? -t.offset_minutes : t.offset_minutes;
  return out + (t.offset_minutes < 0 ? "-" : "+") + ZonedTwo(off / 60) + ":" + ZonedTwo(off % 60);
}

ZonedTime AddDate(const ZonedTime& t, int64_t years_to_add, int64_t months_to_add, int64_t days_to_add) {
  local_seconds local = Local(t);
  local_days date = floor<days>(local);
  year_month_day ymd{date};
  year_month ym = year_month{ymd.year(), ymd.month()} + years{years_to_add} + months{months_to_add};
  local_days moved = local_days{ym / day{1}} + days{int64_t(unsigned(ymd.day())) - 1 + days_to_add};
  local_seconds result = moved + (local - date);
  return {sys_seconds{result.time_since_epoch() - minutes{t.offset_minutes}}, t.offset_minutes};
}

Value WithTimeFields(Value v, const ZonedTime& t) {
  local_seconds local = Local(t);
  local_days date = floor<days>(local);
  year_month_day ymd{date};
  hh_mm_ss<seconds> clock{local - date};
  auto number = [](int64_t n) { return Value::Number(double(n)); };
  v = attrs::With(v, "year", number(int(ymd.year())));
  v = attrs::With(v, "month", number(unsigned(ymd.month())));
  v = attrs::With(v, "day", number(unsigned(ymd.day())));
  v = attrs::With(v, "hour", number(clock.hours().count()));
  v = attrs::With(v, "minute", number(clock.minutes().count()));
  v = attrs::With(v, "second", number(clock.seconds().count()));
  return attrs::With(v, "unix", number(t.instant.time_since_epoch().count()));
}

std::map<std::string, AttributeSchema> WithTimeFieldAttributes(std::map<std::string, AttributeSchema> attributes) {
  for (const char* f : {"year", "month", "day", "hour", "minute", "second", "unix"}) {
    attributes[f] = attrs::Computed("number");
  }
  return attributes;
}

}  // namespace strata::builtin
