#include "engine/base/time_format.h"

#include <charconv>
#include <ctime>

namespace strata::base {

namespace {

bool ParseInt(std::string_view text, size_t pos, size_t len, int* out) {
  if (pos + len > text.size()) return false;
  auto first = text.data() + pos;
  auto [ptr, ec] = std::from_chars(first, first + len, *out);
  return ec == std::errc() && ptr == first + len;
}

}  // namespace

std::string FormatRfc3339(std::chrono::system_clock::time_point t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool ParseRfc3339(std::string_view text, std::chrono::system_clock::time_point* out) {
  // YYYY-MM-DDTHH:MM:SS
  int year, month, day, hour, minute, second;
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') ||
      text[13] != ':' || text[16] != ':')
    return false;
  if (!ParseInt(text, 0, 4, &year) || !ParseInt(text, 5, 2, &month) ||
      !ParseInt(text, 8, 2, &day) || !ParseInt(text, 11, 2, &hour) ||
      !ParseInt(text, 14, 2, &minute) || !ParseInt(text, 17, 2, &second))
    return false;
  size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  }
  std::string_view zone = text.substr(pos);
  if (zone != "Z" && zone != "z" && zone != "+00:00" && !zone.empty()) return false;
  using namespace std::chrono;
  auto ymd = year_month_day{std::chrono::year{year}, std::chrono::month{unsigned(month)},
                            std::chrono::day{unsigned(day)}};
  if (!ymd.ok()) return false;
  *out = sys_days{ymd} + hours{hour} + minutes{minute} + seconds{second};
  return true;
}

}  // namespace strata::base
