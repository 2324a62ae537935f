#include "sandbox/rest_routes.h"

namespace strata::sandbox {
namespace {

bool MatchRoute(const RestRoute& route, const std::vector<std::string>& segments, RouteCaptures& captures) {
  if (route.pattern.size() != segments.size()) return false;
  captures.clear();
  for (size_t i = 0; i < segments.size(); ++i) {
    if (route.pattern[i] == "{}") {
      captures.push_back(segments[i]);
    } else if (route.pattern[i] != segments[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

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

const RestRoute* FindRoute(const std::vector<RestRoute>& routes, const std::string& method,
                           const std::vector<std::string>& segments, RouteCaptures& captures) {
  for (const RestRoute& route : routes)
    if (route.method == method && MatchRoute(route, segments, captures)) return &route;
  return nullptr;
}

}  // namespace strata::sandbox
