#pragma once
// The built-in Kubernetes API (v1.31) the sandbox serves: every kind served by default with
// its resource name, scope, verbs and subresources, and swagger's `definitions` pruned to
// what structured merge reads. Parsed once from the compiled-in catalog
// (api_catalog_text.h); the source of truth is scripts/k8s_api_catalog.py.

#include <string>
#include <vector>

#include "sandbox/kubernetes/resource_type.h"

namespace strata::sandbox::k8s {

//! One served group/version and its resources, in discovery order.
struct GroupVersion {
  std::string group;
  std::string version;
  std::vector<ResourceType> resources;
};

//! A group with its versions, preferred (the first) first.
struct ApiGroup {
  std::string name;
  std::vector<GroupVersion> versions;
};

class ApiCatalog {
 public:
  //! The built-in catalog, parsed on first use (thread-safe).
  static const ApiCatalog& BuiltIn();
  //! Parses a catalog in the format the script writes. Throws nlohmann::json errors.
  explicit ApiCatalog(const Json& catalog);

  //! Groups in discovery order: the core group ("") first.
  const std::vector<ApiGroup>& groups() const { return groups_; }
  //! swagger `definitions`, pruned: {"io.k8s.api.apps.v1.Deployment": {...}, ...}.
  const Json& definitions() const { return definitions_; }
  //! The resource at group/version/plural, or nullptr.
  const ResourceType* Find(const std::string& group, const std::string& version,
                           const std::string& plural) const;

 private:
  std::vector<ApiGroup> groups_;
  Json definitions_;
};

//! `object[key]`, or a null value when `object` is not an object or has no such member.
const Json& MemberAt(const Json& object, const char* key);
//! The string `object[key]`; "" when missing or not a string.
std::string TextAt(const Json& object, const char* key);

//! The strings of array `object[key]` (missing, or not an array: none; non-strings skipped):
//! verbs, shortNames, categories — as the catalog and CRDs both write them.
std::vector<std::string> StringsAt(const Json& object, const char* key);

}  // namespace strata::sandbox::k8s
