#include "sandbox/kubernetes/api_catalog.h"

#include "sandbox/kubernetes/api_catalog_text.h"

namespace strata::sandbox::k8s {
namespace {

ResourceType ReadResource(const std::string& group, const std::string& version, const Json& r) {
  ResourceType type;
  type.group = group;
  type.version = version;
  type.kind = r.at("kind").get<std::string>();
  type.plural = r.at("name").get<std::string>();
  type.singular = r.at("singularName").get<std::string>();
  type.namespaced = r.at("namespaced").get<bool>();
  type.verbs = StringsAt(r, "verbs");
  type.short_names = StringsAt(r, "shortNames");
  type.categories = StringsAt(r, "categories");
  type.status_subresource = r.contains("subresources") && r["subresources"].contains("status");
  type.scale_subresource = r.contains("subresources") && r["subresources"].contains("scale");
  if (r.contains("definition") && r["definition"].is_string()) type.definition = r["definition"].get<std::string>();
  return type;
}

}  // namespace

const ApiCatalog& ApiCatalog::BuiltIn() {
  static const ApiCatalog catalog(Json::parse(ApiCatalogText()));
  return catalog;
}

ApiCatalog::ApiCatalog(const Json& catalog) : definitions_(catalog.at("definitions")) {
  for (const Json& g : catalog.at("groups")) {
    ApiGroup group{g.at("name").get<std::string>(), {}};
    for (const Json& v : g.at("versions")) {
      GroupVersion gv{group.name, v.at("version").get<std::string>(), {}};
      for (const Json& r : v.at("resources")) gv.resources.push_back(ReadResource(gv.group, gv.version, r));
      group.versions.push_back(std::move(gv));
    }
    groups_.push_back(std::move(group));
  }
}

const ResourceType* ApiCatalog::Find(const std::string& group, const std::string& version,
                                     const std::string& plural) const {
  for (const ApiGroup& g : groups_) {
    if (g.name != group) continue;
    for (const GroupVersion& gv : g.versions) {
      if (gv.version != version) continue;
      for (const ResourceType& r : gv.resources)
        if (r.plural == plural) return &r;
    }
  }
  return nullptr;
}

std::vector<std::string> StringsAt(const Json& object, const char* key) {
  std::vector<std::string> out;
  if (!object.is_object() || !object.contains(key) || !object[key].is_array()) return out;
  for (const Json& s : object[key]) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

const Json& MemberAt(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string TextAt(const Json& object, const char* key) {
  const Json& v = MemberAt(object, key);
  return v.is_string() ? v.get<std::string>() : "";
}

}  // namespace strata::sandbox::k8s
