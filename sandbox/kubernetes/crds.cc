#include "sandbox/kubernetes/crds.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "sandbox/kubernetes/api_catalog.h"
#include "sandbox/kubernetes/names.h"

namespace strata::sandbox::k8s {
namespace {

//! The digits of `v` from `at` on, read into `number`; where they end.
size_t ReadVersionNumber(const std::string& v, size_t at, long& number) {
  size_t end = at;
  while (end < v.size() && std::isdigit(static_cast<unsigned char>(v[end]))) ++end;
  if (end > at && end - at < 10) number = std::stol(v.substr(at, end - at));
  return end - at < 10 ? end : at;
}

// (level, -major, -minor): smaller sorts first. Kubernetes versions read v<major> with an
// optional alpha<minor> or beta<minor>; anything else sorts last, by name.
std::tuple<int, long, long, std::string> Priority(const std::string& v) {
  long major = 0, minor = 0;
  size_t at = v.empty() || v[0] != 'v' ? 0 : ReadVersionNumber(v, 1, major);
  if (at <= 1) return {3, 0, 0, v};
  if (at == v.size()) return {0, -major, 0, v};
  for (const auto& [word, level] : {std::pair<std::string, int>{"beta", 1}, {"alpha", 2}}) {
    if (v.compare(at, word.size(), word) != 0) continue;
    size_t end = ReadVersionNumber(v, at + word.size(), minor);
    if (end > at + word.size() && end == v.size()) return {level, -major, -minor, v};
  }
  return {3, 0, 0, v};
}

}  // namespace

bool VersionBefore(const std::string& a, const std::string& b) { return Priority(a) < Priority(b); }

std::vector<ResourceType> TypesOfCrd(const Json& crd) {
  std::vector<ResourceType> types;
  const Json& spec = crd.at("spec");
  const Json& names = spec.at("names");
  for (const Json& v : spec.value("versions", Json::array())) {
    if (!v.value("served", false)) continue;
    ResourceType t;
    t.group = TextAt(spec, "group");
    t.version = TextAt(v, "name");
    t.kind = TextAt(names, "kind");
    t.plural = TextAt(names, "plural");
    t.singular = TextAt(names, "singular");
    if (t.singular.empty()) {
      t.singular = t.kind;
      std::transform(t.singular.begin(), t.singular.end(), t.singular.begin(), ::tolower);
    }
    t.namespaced = TextAt(spec, "scope") != "Cluster";
    t.verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
    t.short_names = StringsAt(names, "shortNames");
    t.categories = StringsAt(names, "categories");
    t.status_subresource = v.contains("subresources") && v["subresources"].is_object() &&
                           v["subresources"].contains("status");
    t.custom = true;
    if (v.contains("schema") && v["schema"].contains("openAPIV3Schema")) t.schema = v["schema"]["openAPIV3Schema"];
    types.push_back(std::move(t));
  }
  std::stable_sort(types.begin(), types.end(),
                   [](const ResourceType& a, const ResourceType& b) { return VersionBefore(a.version, b.version); });
  return types;
}

std::vector<FieldCause> CrdProblems(const Json& crd) {
  std::vector<FieldCause> problems;
  auto invalid = [&](const std::string& field, const std::string& value, const std::string& why) {
    problems.push_back({field, "FieldValueInvalid", "Invalid value: \"" + value + "\": " + why});
  };
  auto required = [&](const std::string& field) {
    problems.push_back({field, "FieldValueRequired", "Required value"});
  };
  const Json spec = crd.value("spec", Json::object());
  const Json names = spec.value("names", Json::object());
  std::string group = TextAt(spec, "group"), plural = TextAt(names, "plural"), kind = TextAt(names, "kind");
  std::string name = crd.at("metadata").value("name", std::string());
  if (group.empty()) required("spec.group");
  else if (group.find('.') == std::string::npos) invalid("spec.group", group, "should be a domain with at least one dot");
  if (plural.empty()) required("spec.names.plural");
  else if (!NameProblems(NameRule::Dns1123Label, plural).empty())
    invalid("spec.names.plural", plural, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'");
  if (kind.empty()) required("spec.names.kind");
  if (!plural.empty() && !group.empty() && name != plural + "." + group)
    invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group");
  std::string scope = TextAt(spec, "scope");
  if (scope != "Namespaced" && scope != "Cluster")
    problems.push_back({"spec.scope", "FieldValueNotSupported",
                        "Unsupported value: \"" + scope + "\": supported values: \"Cluster\", \"Namespaced\""});
  const Json versions = spec.value("versions", Json::array());
  if (!versions.is_array() || versions.empty()) {
    required("spec.versions");
  } else {
    int storage = 0;
    for (const Json& v : versions) storage += v.value("storage", false) ? 1 : 0;
    if (storage != 1)
      invalid("spec.versions", "", "must have exactly one version marked as storage version");
  }
  return problems;
}

Json EstablishCrd(Json crd, const std::string& now) {
  Json& spec = crd["spec"];
  Json status = crd.value("status", Json::object());
  auto condition = [&](const char* type, const char* reason, const char* message) {
    return Json{{"type", type}, {"status", "True"}, {"lastTransitionTime", now}, {"reason", reason}, {"message", message}};
  };
  status["conditions"] = Json::array({condition("NamesAccepted", "NoConflicts", "no conflicts found"),
                                      condition("Established", "InitialNamesAccepted", "the initial names have been accepted")});
  Json accepted = spec.value("names", Json::object());
  if (!accepted.contains("singular") && accepted.contains("kind")) {
    std::string singular = TextAt(accepted, "kind");
    std::transform(singular.begin(), singular.end(), singular.begin(), ::tolower);
    accepted["singular"] = singular;
  }
  status["acceptedNames"] = accepted;
  Json stored = status.value("storedVersions", Json::array());
  for (const Json& v : spec.value("versions", Json::array()))
    if (v.value("storage", false) && std::find(stored.begin(), stored.end(), v.value("name", "")) == stored.end())
      stored.push_back(v.value("name", ""));
  status["storedVersions"] = stored;
  crd["status"] = status;
  return crd;
}

}  // namespace strata::sandbox::k8s
