#include "engine/core/stage_consumers.h"

#include <algorithm>

namespace strata {

std::vector<std::string> AppliedReadersOf(Engine& engine, const ProjectConfig& project, state::StateStore& store,
                                          const std::string& stage) {
  std::vector<std::string> readers;
  for (const StageConfig& other : project.stages) {
    if (other.name == stage) continue;
    Diagnostics ignored;  // a stage that does not load is its own plan's problem
    std::unique_ptr<LoadedStage> loaded = engine.LoadStage(project, other.name, ignored);
    if (!loaded || !loaded->graph) continue;
    const std::vector<std::string>& reads = loaded->graph->stage_dependencies;
    if (std::find(reads.begin(), reads.end(), stage) == reads.end()) continue;
    auto state = store.LoadStage(other.name);
    if (!state.ok()) continue;
    bool holds_objects = std::any_of(state->resources.begin(), state->resources.end(), [](const auto& r) {
      return r.addr.resource.mode == ResourceMode::Managed;
    });
    if (holds_objects) readers.push_back(other.name);
  }
  return readers;
}

}  // namespace strata
