#include "sandbox/kubernetes/kube_status.h"

namespace strata::sandbox::k8s {
namespace {

Json Details(const std::string& group, const std::string& plural, const std::string& name) {
  Json details = {{"name", name}};
  if (!group.empty()) details["group"] = group;
  details["kind"] = plural;
  return details;
}

std::string Qualified(const std::string& group, const std::string& plural) {
  return group.empty() ? plural : plural + "." + group;
}

}  // namespace

Json FailureStatus(int code, const std::string& reason, const std::string& message, const Json& details) {
  Json status = {{"kind", "Status"},     {"apiVersion", "v1"}, {"metadata", Json::object()},
                 {"status", "Failure"},  {"message", message}, {"reason", reason}};
  if (!details.is_null()) status["details"] = details;
  status["code"] = code;
  return status;
}

KubeError NotFound(const std::string& group, const std::string& plural, const std::string& name) {
  return KubeError(FailureStatus(404, "NotFound", Qualified(group, plural) + " \"" + name + "\" not found",
                                 Details(group, plural, name)));
}

KubeError UnknownResource() {
  return KubeError(
      FailureStatus(404, "NotFound", "the server could not find the requested resource", Json::object()));
}

KubeError AlreadyExists(const ResourceType& type, const std::string& name) {
  return KubeError(FailureStatus(409, "AlreadyExists", type.GroupResource() + " \"" + name + "\" already exists",
                                 Details(type.group, type.plural, name)));
}

KubeError UpdateConflict(const ResourceType& type, const std::string& name, const std::string& why) {
  return KubeError(FailureStatus(
      409, "Conflict", "Operation cannot be fulfilled on " + type.GroupResource() + " \"" + name + "\": " + why,
      Details(type.group, type.plural, name)));
}

KubeError Invalid(const ResourceType& type, const std::string& name, const std::vector<FieldCause>& causes) {
  std::string list;
  Json cause_list = Json::array();
  for (const FieldCause& c : causes) {
    std::string text = c.field + ": " + c.message;
    list += (list.empty() ? "" : ", ") + text;
    cause_list.push_back({{"reason", c.reason}, {"message", c.message}, {"field", c.field}});
  }
  if (causes.size() > 1) list = "[" + list + "]";
  Json details = {{"name", name}};
  if (!type.group.empty()) details["group"] = type.group;
  details["kind"] = type.kind;
  details["causes"] = cause_list;
  // kube names the kind qualified by its group: `Deployment.apps "web" is invalid: ...`.
  std::string qualified_kind = type.group.empty() ? type.kind : type.kind + "." + type.group;
  return KubeError(FailureStatus(422, "Invalid", qualified_kind + " \"" + name + "\" is invalid: " + list, details));
}

KubeError BadRequest(const std::string& message) { return KubeError(FailureStatus(400, "BadRequest", message)); }

KubeError MethodNotSupported(const ResourceType& type, const std::string& verb) {
  Json details = Json::object();
  if (!type.group.empty()) details["group"] = type.group;
  details["kind"] = type.plural;
  return KubeError(FailureStatus(405, "MethodNotAllowed",
                                 verb + " is not supported on resources of kind \"" + type.GroupResource() + "\"",
                                 details));
}

KubeError NamespaceTerminating(const ResourceType& type, const std::string& name, const std::string& ns) {
  std::string why = "unable to create new content in namespace " + ns + " because it is being terminated";
  Json details = Details(type.group, type.plural, name);
  details["causes"] = Json::array({{{"reason", "NamespaceTerminating"}, {"message", why}, {"field", "metadata.namespace"}}});
  return KubeError(FailureStatus(403, "Forbidden", type.GroupResource() + " \"" + name + "\" is forbidden: " + why,
                                 details));
}

KubeError UnsupportedMediaType() {
  return KubeError(FailureStatus(415, "UnsupportedMediaType",
                                 "the body of the request was in an unknown format - accepted media types "
                                 "include: application/json-patch+json, application/merge-patch+json, "
                                 "application/apply-patch+yaml, application/strategic-merge-patch+json",
                                 Json::object()));
}

}  // namespace strata::sandbox::k8s
