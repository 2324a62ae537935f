#include "sandbox/kubernetes/discovery.h"

namespace strata::sandbox::k8s {
namespace {

Json GroupVersionRef(const GroupVersion& gv) {
  return {{"groupVersion", gv.group.empty() ? gv.version : gv.group + "/" + gv.version}, {"version", gv.version}};
}

Json GroupEntry(const ApiGroup& group) {
  Json versions = Json::array();
  for (const GroupVersion& gv : group.versions) versions.push_back(GroupVersionRef(gv));
  return {{"name", group.name}, {"versions", versions}, {"preferredVersion", GroupVersionRef(group.versions.front())}};
}

Json ResourceEntry(const ResourceType& r) {
  Json entry = {{"name", r.plural}, {"singularName", r.singular}, {"namespaced", r.namespaced},
                {"kind", r.kind},   {"verbs", r.verbs}};
  if (!r.short_names.empty()) entry["shortNames"] = r.short_names;
  if (!r.categories.empty()) entry["categories"] = r.categories;
  return entry;
}

Json StatusEntry(const ResourceType& r) {
  return {{"name", r.plural + "/status"}, {"singularName", ""}, {"namespaced", r.namespaced},
          {"kind", r.kind},               {"verbs", {"get", "patch", "update"}}};
}

Json ScaleEntry(const ResourceType& r) {
  return {{"name", r.plural + "/scale"}, {"singularName", ""},  {"namespaced", r.namespaced},
          {"group", "autoscaling"},      {"version", "v1"},     {"kind", "Scale"},
          {"verbs", {"get", "patch", "update"}}};
}

}  // namespace

Json VersionInfo() {
  return {{"major", "1"},
          {"minor", "31"},
          {"gitVersion", "v1.31.0-eks-sandbox"},
          {"gitCommit", "0000000000000000000000000000000000000000"},
          {"gitTreeState", "clean"},
          {"buildDate", "2024-08-13T00:00:00Z"},
          {"goVersion", "go1.22.5"},
          {"compiler", "gc"},
          {"platform", "linux/amd64"}};
}

Json ApiVersions() {
  return {{"kind", "APIVersions"},
          {"versions", {"v1"}},
          {"serverAddressByClientCIDRs", Json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", "127.0.0.1:443"}}})}};
}

Json ApiGroupList(const ApiTypes& types) {
  Json groups = Json::array();
  for (const ApiGroup& g : types.groups())
    if (!g.name.empty() && !g.versions.empty()) groups.push_back(GroupEntry(g));
  return {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}};
}

Json ApiGroupDocument(const ApiTypes& types, const std::string& group) {
  for (const ApiGroup& g : types.groups()) {
    if (g.name != group || g.name.empty() || g.versions.empty()) continue;
    Json doc = GroupEntry(g);
    doc["kind"] = "APIGroup";
    doc["apiVersion"] = "v1";
    return doc;
  }
  return nullptr;
}

Json ApiResourceList(const ApiTypes& types, const std::string& group, const std::string& version) {
  const GroupVersion* gv = types.FindGroupVersion(group, version);
  if (!gv) return nullptr;
  Json resources = Json::array();
  for (const ResourceType& r : gv->resources) {
    resources.push_back(ResourceEntry(r));
    if (r.scale_subresource) resources.push_back(ScaleEntry(r));
    if (r.status_subresource) resources.push_back(StatusEntry(r));
  }
  Json list = {{"kind", "APIResourceList"}};
  if (!group.empty()) list["apiVersion"] = "v1";
  list["groupVersion"] = group.empty() ? version : group + "/" + version;
  list["resources"] = resources;
  return list;
}

}  // namespace strata::sandbox::k8s
