#include "state/stage_outputs.h"

namespace strata::state {

StateResult<OutputState> LookupStageOutput(StateStore& store, const std::string& stage, const std::string& name) {
  auto outputs = store.LoadOutputs(stage);
  if (!outputs.ok()) return outputs.status();
  auto it = outputs->find(name);
  if (it != outputs->end()) return it->second;
  std::string names;
  for (const auto& [n, o] : *outputs) names += (names.empty() ? "" : ", ") + n;
  if (names.empty()) {
    // Destroyed, or applied before it declared any output: applying it again makes them.
    return StateStatus::Error(StateCode::NotFound, "stage \"" + stage + "\" has no outputs in its state (it was " +
                                                       "destroyed, or applied before it had any): run `strata apply " +
                                                       stage + "` first");
  }
  return StateStatus::Error(StateCode::NotFound, "stage \"" + stage + "\" has no output \"" + name + "\" (it has: " +
                                                     names + "): declare it in the outputs of stage " + stage +
                                                     " and run `strata apply " + stage + "`");
}

}  // namespace strata::state
