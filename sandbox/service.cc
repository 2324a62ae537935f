#include "sandbox/service.h"

#include <cstdio>
#include <ctime>

#include "sandbox/protocol/json_body.h"
#include "sandbox/protocol/query_params.h"

namespace strata::sandbox {

std::map<std::string, std::string> Request::Params() const {
  return QueryProtocolParams(method, query, body);
}

Json Request::JsonBody() const { return ParseJsonBody(body); }

std::vector<std::string> PathSegments(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::string RegionOf(const ServiceContext& ctx) {
  return ctx.request.region.empty() ? "us-east-1" : ctx.request.region;
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
