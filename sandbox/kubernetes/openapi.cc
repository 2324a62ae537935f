#include "sandbox/kubernetes/openapi.h"

namespace strata::sandbox::k8s {
namespace {

std::string GroupVersionPath(const GroupVersion& gv) {
  return gv.group.empty() ? "api/" + gv.version : "apis/" + gv.group + "/" + gv.version;
}

Json QueryParameter(const char* name) {
  return {{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}}}, {"uniqueItems", true}};
}

// One group/version's document: for each resource, its object path with the PATCH
// operation, its kind (x-kubernetes-group-version-kind) and the query parameters the
// server takes. kubectl reads exactly this to decide that the server validates fields
// (fieldValidation) and takes server-side apply; schemas are not published.
Json GroupVersionDocument(const GroupVersion& gv) {
  Json paths = Json::object();
  for (const ResourceType& r : gv.resources) {
    if (!r.Allows("patch")) continue;
    std::string path = "/" + GroupVersionPath(gv) + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.plural + "/{name}";
    Json parameters = Json::array();
    for (const char* name : {"dryRun", "fieldManager", "fieldValidation", "force"}) parameters.push_back(QueryParameter(name));
    paths[path] = {{"patch",
                    {{"operationId", "patch" + r.kind},
                     {"parameters", parameters},
                     {"responses", {{"200", {{"description", "OK"}}}}},
                     {"x-kubernetes-action", "patch"},
                     {"x-kubernetes-group-version-kind", {{"group", r.group}, {"version", r.version}, {"kind", r.kind}}}}}};
  }
  return {{"openapi", "3.0.0"}, {"info", {{"title", "Kubernetes"}, {"version", "v1.31.0"}}}, {"paths", paths},
          {"components", {{"schemas", Json::object()}}}};
}

}  // namespace

Json OpenApiDocument(const ApiTypes& types, const std::string& path) {
  const std::string root = "/openapi/v3";
  if (path == root || path == root + "/") {
    Json paths = Json::object();
    for (const ApiGroup& g : types.groups())
      for (const GroupVersion& gv : g.versions)
        paths[GroupVersionPath(gv)] = {{"serverRelativeURL", root + "/" + GroupVersionPath(gv)}};
    return {{"paths", paths}};
  }
  if (path.rfind(root + "/", 0) != 0) return nullptr;
  std::string wanted = path.substr(root.size() + 1);
  for (const ApiGroup& g : types.groups())
    for (const GroupVersion& gv : g.versions)
      if (GroupVersionPath(gv) == wanted) return GroupVersionDocument(gv);
  return nullptr;
}

}  // namespace strata::sandbox::k8s
