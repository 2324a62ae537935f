#pragma once
// What a path under a cluster's endpoint names (the part after /clusters/<name>):
// a discovery document, or a resource collection, object or subresource:
//   /api/v1/<resource>[/<name>[/<subresource>]]
//   /api/v1/namespaces/<ns>/<resource>[/<name>[/<subresource>]]
//   /apis/<group>/<version>/... (the same shapes)
// /api/v1/namespaces/<name>/status and /finalize are the namespace's own subresources.

#include <optional>
#include <string>

namespace strata::sandbox::k8s {

struct ResourcePath {
  std::string group;
  std::string version;
  std::string plural;
  std::string ns;    //!< from the URL; empty when the URL names no namespace
  std::string name;  //!< empty for a collection
  std::string subresource;
};

//! The resource the path names, or nullopt for anything else (discovery, unknown paths).
std::optional<ResourcePath> ParseResourcePath(const std::string& path);

}  // namespace strata::sandbox::k8s
