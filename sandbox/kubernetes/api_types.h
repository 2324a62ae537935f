#pragma once
// The types one cluster serves right now: the built-in catalog plus every CRD stored in
// the cluster (each served version of it). Loaded per request, so a CRD created by one
// request is served by the next.

#include <string>
#include <vector>

#include "sandbox/kubernetes/api_catalog.h"
#include "sandbox/kubernetes/object_store.h"

namespace strata::sandbox::k8s {

class ApiTypes {
 public:
  //! The built-ins and the CRDs in `store` (those not being deleted).
  static ApiTypes Load(const ObjectStore& store);

  //! The type at group/version/plural, or nullptr when none is served there.
  const ResourceType* Find(const std::string& group, const std::string& version, const std::string& plural) const;
  //! The type of kind `kind` at group/version, or nullptr.
  const ResourceType* FindKind(const std::string& group, const std::string& version, const std::string& kind) const;
  //! Every served group in discovery order: the built-ins, then custom groups by name.
  const std::vector<ApiGroup>& groups() const { return groups_; }
  //! The group/version's resources, or nullptr when not served.
  const GroupVersion* FindGroupVersion(const std::string& group, const std::string& version) const;

 private:
  std::vector<ApiGroup> groups_;
};

}  // namespace strata::sandbox::k8s
