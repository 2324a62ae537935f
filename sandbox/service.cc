#include "sandbox/service.h"

#include <cstdio>
#include <ctime>

#include "providers/aws/http/url.h"

namespace strata::sandbox {

namespace {

// application/x-www-form-urlencoded: '&'-separated pairs, '+' for space, %XX escapes.
void ParseForm(std::string_view text, std::map<std::string, std::string>& out) {
  auto decode = [](std::string_view s) {
    std::string plus(s);
    for (char& c : plus) {
      if (c == '+') c = ' ';
    }
    return aws::UriDecode(plus);
  };
  while (!text.empty()) {
    size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string key = decode(pair.substr(0, eq));
    out[key] = eq == std::string_view::npos ? "" : decode(pair.substr(eq + 1));
  }
}

}  // namespace

std::map<std::string, std::string> Request::Params() const {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : query) out[k] = v;
  if (method == "POST") ParseForm(body, out);
  return out;
}

Json Request::JsonBody() const {
  if (body.empty()) return Json::object();
  Json parsed = Json::parse(body, nullptr, false);
  if (parsed.is_discarded()) throw ApiError(400, "BadRequestException", "The request body is not valid JSON.");
  return parsed;
}

std::string IsoTime(std::chrono::system_clock::time_point t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

double EpochSeconds(std::chrono::system_clock::time_point t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  return static_cast<double>(ms) / 1000.0;
}

}  // namespace strata::sandbox
