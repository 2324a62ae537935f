#include "engine/core/module_sources.h"

#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

namespace strata {
namespace {

void Check(const ProjectConfig& project, const ModuleConfig& module, std::set<const ModuleConfig*>& seen,
           Diagnostics& diags) {
  if (!seen.insert(&module).second) return;  // a module called from several places
  for (const auto& [name, call] : module.modules) {
    if (!call.module) continue;  // not loaded: the loader has said why
    // The loader resolved the directory (symlinks included) into call.module->dir.
    if (std::optional<std::string> outside = project.Escape(module.dir, call.module->dir)) {
      diags.Error("Module source outside the project",
                  ProjectConfig::EscapeDetail(fmt::format("The module call \"{}\" has source", name), call.source,
                                              *outside),
                  call.source_range);
      continue;
    }
    Check(project, *call.module, seen, diags);
  }
}

}  // namespace

void CheckModuleSources(const ProjectConfig& project, const ModuleConfig& root, Diagnostics& diags) {
  std::set<const ModuleConfig*> seen;
  Check(project, root, seen, diags);
}

}  // namespace strata
