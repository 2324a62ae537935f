#include "sandbox/kubernetes/request_path.h"

#include <vector>

namespace strata::sandbox::k8s {
namespace {

std::vector<std::string> Segments(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

}  // namespace

std::optional<ResourcePath> ParseResourcePath(const std::string& path) {
  std::vector<std::string> s = Segments(path);
  ResourcePath r;
  size_t i = 0;
  if (s.size() >= 3 && s[0] == "api" && s[1] == "v1") {
    r.version = "v1";
    i = 2;
  } else if (s.size() >= 4 && s[0] == "apis") {
    r.group = s[1];
    r.version = s[2];
    i = 3;
  } else {
    return std::nullopt;
  }
  std::vector<std::string> rest(s.begin() + static_cast<long>(i), s.end());
  bool namespace_subresource = rest.size() == 3 && rest[0] == "namespaces" && r.group.empty() &&
                               (rest[2] == "status" || rest[2] == "finalize");
  if (rest.size() >= 3 && rest[0] == "namespaces" && !namespace_subresource) {
    r.ns = rest[1];
    rest.erase(rest.begin(), rest.begin() + 2);
  }
  if (rest.empty() || rest.size() > 3) return std::nullopt;
  r.plural = rest[0];
  if (rest.size() >= 2) r.name = rest[1];
  if (rest.size() == 3) r.subresource = rest[2];
  return r;
}

}  // namespace strata::sandbox::k8s
