#include "sandbox/kubernetes/api_types.h"

#include <algorithm>

#include "sandbox/kubernetes/crds.h"

namespace strata::sandbox::k8s {

ApiTypes ApiTypes::Load(const ObjectStore& store) {
  ApiTypes types;
  types.groups_ = ApiCatalog::BuiltIn().groups();
  size_t built_in = types.groups_.size();
  for (const Json& crd : store.ListResource("apiextensions.k8s.io", "customresourcedefinitions", "")) {
    if (crd.at("metadata").contains("deletionTimestamp")) continue;
    for (ResourceType& t : TypesOfCrd(crd)) {
      auto group = std::find_if(types.groups_.begin(), types.groups_.end(),
                                [&](const ApiGroup& g) { return g.name == t.group; });
      if (group == types.groups_.end()) {
        types.groups_.push_back({t.group, {}});
        group = types.groups_.end() - 1;
      }
      auto gv = std::find_if(group->versions.begin(), group->versions.end(),
                             [&](const GroupVersion& v) { return v.version == t.version; });
      if (gv == group->versions.end()) {
        group->versions.push_back({t.group, t.version, {}});
        gv = group->versions.end() - 1;
      }
      gv->resources.push_back(std::move(t));
    }
  }
  for (size_t i = built_in; i < types.groups_.size(); ++i) {
    auto& versions = types.groups_[i].versions;
    std::stable_sort(versions.begin(), versions.end(),
                     [](const GroupVersion& a, const GroupVersion& b) { return VersionBefore(a.version, b.version); });
    for (GroupVersion& gv : versions)
      std::sort(gv.resources.begin(), gv.resources.end(),
                [](const ResourceType& a, const ResourceType& b) { return a.plural < b.plural; });
  }
  std::sort(types.groups_.begin() + static_cast<long>(built_in), types.groups_.end(),
            [](const ApiGroup& a, const ApiGroup& b) { return a.name < b.name; });
  return types;
}

const GroupVersion* ApiTypes::FindGroupVersion(const std::string& group, const std::string& version) const {
  for (const ApiGroup& g : groups_) {
    if (g.name != group) continue;
    for (const GroupVersion& gv : g.versions)
      if (gv.version == version) return &gv;
  }
  return nullptr;
}

const ResourceType* ApiTypes::Find(const std::string& group, const std::string& version,
                                   const std::string& plural) const {
  const GroupVersion* gv = FindGroupVersion(group, version);
  if (!gv) return nullptr;
  for (const ResourceType& r : gv->resources)
    if (r.plural == plural) return &r;
  return nullptr;
}

const ResourceType* ApiTypes::FindKind(const std::string& group, const std::string& version,
                                       const std::string& kind) const {
  const GroupVersion* gv = FindGroupVersion(group, version);
  if (!gv) return nullptr;
  for (const ResourceType& r : gv->resources)
    if (r.kind == kind) return &r;
  return nullptr;
}

}  // namespace strata::sandbox::k8s
