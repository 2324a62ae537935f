#include "sandbox/kubernetes/merge/conflict_status.h"

#include <map>

#include "providers/kubernetes/fieldpath/go_json.h"

namespace strata::sandbox::k8s {

using kubernetes::fieldpath::GoQuote;
using kubernetes::fieldpath::PathString;

std::string ConflictManagerText(const Conflict& conflict, bool with_time) {
  std::string text = GoQuote(conflict.manager);
  if (!conflict.subresource.empty()) text += " with subresource " + GoQuote(conflict.subresource);
  if (conflict.operation == "Update") {
    text += " using " + conflict.api_version;
    if (with_time && !conflict.time.empty()) text += " at " + conflict.time;
  }
  return text;
}

Json ConflictStatus(const std::vector<Conflict>& conflicts) {
  Json causes = Json::array();
  for (const Conflict& c : conflicts) {
    causes.push_back({{"reason", "FieldManagerConflict"},
                      {"message", "conflict with " + ConflictManagerText(c)},
                      {"field", PathString(c.path)}});
  }
  std::string message;
  if (conflicts.size() == 1) {
    message = "Apply failed with 1 conflict: conflict with " + ConflictManagerText(conflicts[0]) + ": " +
              PathString(conflicts[0].path);
  } else {
    // Grouped by how the manager prints, in that text's order, as kube-apiserver groups by
    // its manager identifier.
    std::map<std::string, std::vector<std::string>> by_manager;
    for (const Conflict& c : conflicts) by_manager[ConflictManagerText(c)].push_back(PathString(c.path));
    message = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: ";
    bool first = true;
    for (const auto& [manager, paths] : by_manager) {
      message += (first ? "" : "\n") + std::string("conflicts with ") + manager + ":";
      first = false;
      for (const std::string& path : paths) message += "\n- " + path;
    }
  }
  return {{"kind", "Status"},
          {"apiVersion", "v1"},
          {"metadata", Json::object()},
          {"status", "Failure"},
          {"message", message},
          {"reason", "Conflict"},
          {"details", {{"causes", causes}}},
          {"code", 409}};
}

}  // namespace strata::sandbox::k8s
