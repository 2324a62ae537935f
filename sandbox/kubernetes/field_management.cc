#include "sandbox/kubernetes/field_management.h"

namespace strata::sandbox::k8s {

std::string UpdateManager(const std::string& field_manager, const std::string& user_agent) {
  if (!field_manager.empty()) return field_manager;
  std::string program = user_agent.substr(0, user_agent.find('/'));
  return program.empty() ? "unknown" : program;
}

Json RecordUpdateEntry(const ResourceType&, const Json*, Json updated, const std::string&, const std::string&) {
  return updated;
}

Json ServerSideApply(const ResourceType&, const Json* live, const Json& config, const std::string&, bool,
                     const std::string&) {
  if (!live) return config;
  Json merged = *live;
  merged.merge_patch(config);
  return merged;
}

}  // namespace strata::sandbox::k8s
